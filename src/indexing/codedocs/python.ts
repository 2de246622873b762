/**
 * generateDocs for Python, without a Python parser: the source is read as logical lines
 * (py-lexer), and an indentation stack tells module, class and function scopes apart.
 *
 * Documented: public module-level functions and classes (those in `__all__` when it is a
 * literal list), and the documented public methods, properties and nested classes of public
 * classes. A class's code is its header and the signatures of its public methods (with
 * `__init__` and `__call__`) and attributes; `__init__`'s docstring joins the class's.
 * Definitions inside functions are never API. `startLine` is the first decorator's line.
 */
import type { ParsedSnippet } from '../types';
import { cleanDocstring, splitDocstring } from './py-docstring';
import { leadingString, logicalLines, type LogicalLine } from './py-lexer';
import { boundLines, exampleSnippets, symbolSnippets, type ModuleRef, type SymbolExample } from './snippet';

interface Docstring {
  raw: string;
  /** 0-based line where the literal starts. */
  line: number;
}

interface PySymbol {
  kind: 'function' | 'class' | 'property';
  /** Qualified name: `dumps`, `JSONEncoder.encode`, `Outer.Inner`. */
  name: string;
  /** The enclosing class's qualified name, for members. */
  owner?: string;
  signatures: string[];
  docstring?: Docstring;
  /** 0-based first line (the first decorator's). */
  line: number;
  /** Classes: outline lines of public methods and attributes. */
  members: string[];
  init?: Docstring;
}

interface Scope {
  kind: 'class' | 'def';
  indent: number;
  name: string;
  /** Classes: the symbol collecting the outline (absent for private classes). */
  symbol?: PySymbol;
  /** Classes: the indentation of the class body's statements. */
  bodyIndent?: number;
}

const DEFINITION = /^(async\s+def|def|class)\s+([A-Za-z_]\w*)/;
const PROPERTY = /^@(?:[\w.]+\.)?(?:cached_property|property|abstractproperty)\b/;
const ATTRIBUTE = /^([A-Za-z]\w*)\s*(?::(?!=)|=(?!=))/;
/** Overloads and property setters merged into one symbol show at most this many signatures. */
const MAX_SIGNATURES = 6;

/** Snippets for the public API of one Python file. Never throws; returns what it could read. */
export function snippetsFromPython(doc: { path: string; text: string }): ParsedSnippet[] {
  const ref: ModuleRef = { path: doc.path, module: pythonModuleName(doc.path) };
  const out: ParsedSnippet[] = [];
  try {
    const lines = logicalLines(doc.text);
    const moduleDoc = lines[0] && lines[0].indent === 0 ? leadingString(lines[0].text) : undefined;
    if (moduleDoc !== undefined) {
      const parts = docParts({ raw: moduleDoc, line: lines[0].start });
      out.push(...exampleSnippets(ref, ref.module, [], parts.description, parts.examples));
    }
    for (const symbol of scanDefinitions(lines, exportedNames(lines))) out.push(...render(ref, symbol));
  } catch {
    // A file the scanner cannot follow contributes what was found before the problem.
  }
  return out;
}

/** `pkg/sub/mod.py` → pkg.sub.mod; `src/pkg/__init__.py` → pkg. */
export function pythonModuleName(path: string): string {
  const name = path
    .replace(/\.pyi?$/, '')
    .replace(/(^|\/)__init__$/, '')
    .replace(/^src\//, '')
    .replace(/\//g, '.');
  return name || path;
}

function scanDefinitions(lines: LogicalLine[], exported: Set<string> | undefined): PySymbol[] {
  const symbols: PySymbol[] = [];
  const byName = new Map<string, PySymbol>();
  const stack: Scope[] = [];
  let decorators: LogicalLine[] = [];
  for (let k = 0; k < lines.length; k++) {
    const ll = lines[k];
    while (stack.length > 0 && stack[stack.length - 1].indent >= ll.indent) stack.pop();
    const parent = stack[stack.length - 1];
    if (ll.text.startsWith('@')) {
      decorators.push(ll);
      continue;
    }
    const decos = decorators;
    decorators = [];
    const m = DEFINITION.exec(ll.text);
    if (!m) {
      if (parent?.symbol && ll.indent === parent.bodyIndent) addAttribute(parent.symbol, ll);
      continue;
    }
    const isClass = m[1] === 'class';
    const name = m[2];
    const inFunction = stack.some((s) => s.kind === 'def');
    const owner = parent?.kind === 'class' ? parent : undefined;
    const visible = !inFunction && (owner ? owner.symbol !== undefined && !name.startsWith('_') : isPublicName(name, exported));
    const next = lines[k + 1];
    const scope: Scope = { kind: isClass ? 'class' : 'def', indent: ll.indent, name: owner ? `${owner.name}.${name}` : name };
    if (isClass && next && next.indent > ll.indent) scope.bodyIndent = next.indent;
    stack.push(scope);
    if (inFunction) continue;
    const signature = [...decos.map((d) => unindent(d.text, d.margin)), header(ll)].join('\n');
    const docstring = docstringAfter(lines, k);
    // A property's setter and deleter (`@name.setter`) belong to the property already listed.
    const accessor = decos.some((d) => d.text.startsWith(`@${name}.`));
    if (owner?.symbol && !accessor && (visible || name === '__init__' || name === '__call__')) owner.symbol.members.push(outlineEntry(signature));
    if (owner?.symbol && name === '__init__' && docstring) owner.symbol.init = docstring;
    if (!visible) continue;
    const existing = byName.get(scope.name);
    if (existing && !isClass && existing.kind !== 'class') {
      if (existing.signatures.length < MAX_SIGNATURES) existing.signatures.push(signature);
      existing.docstring ??= docstring;
      continue;
    }
    if (accessor) continue;
    const kind = isClass ? 'class' : decos.some((d) => PROPERTY.test(d.text)) ? 'property' : 'function';
    const symbol: PySymbol = { kind, name: scope.name, owner: owner?.name, signatures: [signature], docstring, line: (decos[0] ?? ll).start, members: [] };
    if (isClass) scope.symbol = symbol;
    symbols.push(symbol);
    byName.set(scope.name, symbol);
  }
  return symbols;
}

function render(ref: ModuleRef, symbol: PySymbol): ParsedSnippet[] {
  const isMember = symbol.owner !== undefined;
  if (isMember && !symbol.docstring && symbol.kind !== 'class') return [];
  const parts = symbol.docstring ? docParts(symbol.docstring) : { description: '', examples: [] };
  const init = symbol.init ? docParts(symbol.init) : undefined;
  const description = [parts.description, init?.description ?? ''].filter(Boolean).join('\n\n');
  const title = symbol.kind === 'class' ? `class ${symbol.name}` : symbol.kind === 'property' ? symbol.name : `${symbol.name}()`;
  const code = symbol.kind === 'class' ? boundLines([symbol.signatures[0], ...symbol.members].join('\n'), undefined, '#') : symbol.signatures.join('\n');
  return symbolSnippets(ref, {
    title,
    containers: symbol.owner ? [`class ${symbol.owner}`] : [],
    description,
    code,
    language: 'python',
    line: symbol.line + 1,
    examples: [...parts.examples, ...(init?.examples ?? [])],
  });
}

/** A docstring's description and examples, example lines made file lines. */
function docParts(doc: Docstring): { description: string; examples: SymbolExample[] } {
  const cleaned = cleanDocstring(doc.raw);
  const parts = splitDocstring(cleaned.text);
  const examples = parts.examples.map((e) => ({ code: e.code, language: e.language, caption: e.caption, line: doc.line + cleaned.skipped + e.offset + 1 }));
  return { description: parts.description, examples };
}

/** The docstring of the definition at `lines[k]`: the first statement of its body, if a string. */
function docstringAfter(lines: LogicalLine[], k: number): Docstring | undefined {
  const ll = lines[k];
  if (ll.colon === -1) return undefined;
  const rest = ll.text.slice(ll.colon + 1).trim();
  if (rest !== '' && !rest.startsWith('#')) {
    const inline = leadingString(rest);
    return inline === undefined ? undefined : { raw: inline, line: ll.end };
  }
  const next = lines[k + 1];
  if (!next || next.indent <= ll.indent) return undefined;
  const raw = leadingString(next.text);
  return raw === undefined ? undefined : { raw, line: next.start };
}

/** A definition's header up to its `:`, later lines dedented to the definition's indentation. */
function header(ll: LogicalLine): string {
  const text = ll.colon === -1 ? (ll.text.split('\n')[0] ?? ll.text) : ll.text.slice(0, ll.colon + 1);
  return unindent(text, ll.margin);
}

/**
 * Removes the statement's own indentation from its continuation lines. It is removed as
 * written (`margin`), so tab-indented code keeps its relative tabs.
 */
function unindent(text: string, margin: string): string {
  return text
    .split('\n')
    .map((line, i) => {
      if (i === 0 || margin === '') return line;
      if (line.startsWith(margin)) return line.slice(margin.length);
      return line.slice(Math.min(margin.length, line.length - line.trimStart().length));
    })
    .join('\n');
}

/** A method or nested class in a class outline: indented, its body elided. */
function outlineEntry(signature: string): string {
  return signature
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')
    .concat(' ...');
}

/** A public class attribute (`name: int = 0`, `timeout = 5`) in the class outline: its first line. */
function addAttribute(symbol: PySymbol, ll: LogicalLine): void {
  const m = ATTRIBUTE.exec(ll.text);
  if (!m || m[1].startsWith('_')) return;
  const first = ll.text.split('\n')[0] ?? '';
  symbol.members.push(`    ${first.length > 120 || ll.text.includes('\n') ? `${first.slice(0, 117)} …` : first}`);
}

function isPublicName(name: string, exported: Set<string> | undefined): boolean {
  return exported ? exported.has(name) : !name.startsWith('_');
}

/**
 * The names in `__all__` when every assignment to it is a literal list or tuple of strings
 * (`=`, `+=`, `.extend`, `.append`); undefined when there is none or it is computed.
 */
export function exportedNames(lines: LogicalLine[]): Set<string> | undefined {
  let names: Set<string> | undefined;
  for (const ll of lines) {
    if (ll.indent !== 0 || !ll.text.startsWith('__all__')) continue;
    const m = /^__all__\s*(?::[^=]*)?(\+=|=|\.extend\s*\(|\.append\s*\()([\s\S]*)$/.exec(ll.text);
    if (!m) continue;
    const strings = [...m[2].matchAll(/(['"])([A-Za-z_]\w*)\1/g)].map((x) => x[2]);
    const leftover = m[2].replace(/(['"])[^'"]*\1/g, '').replace(/#.*$/gm, '');
    if (/[A-Za-z_]/.test(leftover)) return undefined;
    names ??= new Set();
    for (const s of strings) names.add(s);
  }
  return names;
}
