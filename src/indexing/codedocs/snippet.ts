/** What the TypeScript and Python generators share: building snippets and bounding code. */
import type { ParsedSnippet } from '../types';

/** Longest declaration (interface, type, class outline) kept as one snippet's code. */
export const MAX_DECLARATION_LINES = 60;

/** One documented symbol as a generator found it, before it becomes snippets. */
export interface SymbolDoc {
  /** "createApp()", "class Router", "Router.use()", "type Options". */
  title: string;
  /** Titles of the enclosing class or namespace, outermost first. */
  containers: string[];
  description: string;
  code: string;
  language: string;
  /** 1-based line of the declaration. */
  line: number;
  examples: SymbolExample[];
}

/** A usage example taken from a doc comment or docstring. */
export interface SymbolExample {
  code: string;
  language: string;
  /** The prose that introduced the example ("" when none). */
  caption: string;
  /** 1-based line of the example's code. */
  line: number;
}

/** Where the snippets of one file go: its path and the module name shown in breadcrumbs. */
export interface ModuleRef {
  path: string;
  module: string;
}

/**
 * The snippets of one symbol: its signature with its documentation, then one snippet per
 * example, titled "<symbol> example" (numbered from the second) and introduced by the
 * example's caption or else the symbol's first paragraph.
 */
export function symbolSnippets(ref: ModuleRef, symbol: SymbolDoc): ParsedSnippet[] {
  const breadcrumb = [ref.module, ...symbol.containers, symbol.title];
  const main: ParsedSnippet = {
    kind: 'code',
    title: symbol.title,
    breadcrumb,
    pageTitle: ref.module,
    description: symbol.description,
    content: '',
    language: symbol.language,
    code: symbol.code,
    path: ref.path,
    startLine: symbol.line,
  };
  const name = symbol.title.replace(/^(class|interface|type|enum|namespace)\s+/, '');
  return [main, ...exampleSnippets(ref, name, breadcrumb, symbol.description, symbol.examples)];
}

/**
 * One snippet per distinct example of `name`, titled "<name> example" (numbered from the
 * second), introduced by its caption or else the first paragraph of `description`.
 */
export function exampleSnippets(ref: ModuleRef, name: string, breadcrumb: string[], description: string, examples: SymbolExample[]): ParsedSnippet[] {
  const summary = firstParagraph(description);
  const seen = new Set<string>();
  const out: ParsedSnippet[] = [];
  for (const example of examples) {
    if (example.code.trim() === '' || seen.has(example.code)) continue;
    seen.add(example.code);
    out.push({
      kind: 'code',
      title: seen.size === 1 ? `${name} example` : `${name} example ${seen.size}`,
      breadcrumb: breadcrumb.length > 0 ? breadcrumb : [ref.module],
      pageTitle: ref.module,
      description: example.caption || summary,
      content: '',
      language: example.language,
      code: example.code,
      path: ref.path,
      startLine: example.line,
    });
  }
  return out;
}

/** The first paragraph of a description. */
export function firstParagraph(text: string): string {
  return text.trim().split(/\n\s*\n/)[0] ?? '';
}

/**
 * Keeps at most `max` lines: the head, a marker saying how much was left out, and the last
 * line when it closes the declaration (`}`), so the code still reads as a whole.
 */
export function boundLines(code: string, max = MAX_DECLARATION_LINES, comment = '//'): string {
  const lines = code.split('\n');
  if (lines.length <= max) return code;
  const last = lines[lines.length - 1];
  const closes = /^\s*[}\])]/.test(last);
  const head = lines.slice(0, max - (closes ? 2 : 1));
  const indent = /^\s*/.exec(lines[1] ?? '')?.[0] ?? '';
  return [...head, `${indent}${comment} … ${lines.length - head.length - (closes ? 1 : 0)} more lines`, ...(closes ? [last] : [])].join('\n');
}

/**
 * Removes `column` characters of indentation from every line but the first: a declaration
 * sliced from the middle of a file starts at its first character while its later lines keep
 * the file's indentation.
 */
export function dedentFollowing(text: string, column: number): string {
  if (column <= 0) return text;
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? line : line.slice(Math.min(column, line.length - line.trimStart().length))))
    .join('\n');
}

/** Indents every line of `text` by `prefix`. */
export function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l) => (l.trim() === '' ? l : prefix + l))
    .join('\n');
}
