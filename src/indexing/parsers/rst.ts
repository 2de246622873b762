/**
 * reStructuredText (.rst), scanned line by line. Section titles by adornment (levels in order
 * of first appearance), code directives, `::` literal blocks and `>>>` doctest blocks as
 * code; admonitions, version notes and API object directives kept as prose; tables of
 * contents, images and includes dropped (autodoc is expanded before parsing, into
 * `.. shelfmark:api::` entries: includes/autodoc.ts); roles rendered as text. There is no
 * maintained JavaScript reST parser, and a snippet splitter needs far less than docutils.
 */
import type { ParsedSnippet, SourceDocument } from '../types';
import { admonitionLead, classifyDirective, defaultCodeLanguage, highlightLanguage, objectSignature } from './rst-directives';
import { cleanRstInline, cleanRstTitle } from './rst-inline';
import { blocksToSnippets, firstTitle, type DocBlock } from './sections';
import { endAnnouncement, type CodeBlock } from './blocks';
import {
  cleanKeepingIndent,
  dedentBlock,
  indentWidth,
  isBlank,
  normaliseLanguage,
  numberLines,
  sessionLanguage,
  stripIndent,
  titleFromPath,
  type SourceLine,
} from './text-utils';
import { LIST_ITEM, autoNumbered, type AutoNumbers } from './rst-lists';

interface RstContext {
  /** Adornment styles in order of first appearance; the index is the level. */
  levels: string[];
  /** Language of literal blocks, set by `.. highlight::`; Sphinx's `default` until then (highlightLanguage). */
  highlight: string;
}

const ADORNMENT = /^([!-\/:-@[-`{-~])\1{2,}[ \t]*$/;
const EXPLICIT = /^(\s*)\.\.(?:[ \t]+(.*))?$/;
const DIRECTIVE = /^([A-Za-z][\w.+-]*(?::[\w.+-]+)*)::(?:[ \t]+(.*))?$/;
const OPTION = /^\s*:[^:\s][^:]*:(\s|$)/;
const TABLE_BORDER = /^\s*[+=-]{2,}[+=\s-]*$/;
const METADATA = /^:(orphan|tocdepth|nocomments|nosearch|hide-toc|hide-navigation)\b/;

/** Splits one reStructuredText document into snippets. Never throws. */
export function splitRstIntoSnippets(doc: SourceDocument): ParsedSnippet[] {
  const blocks = rstToBlocks(numberLines(doc.text));
  return blocksToSnippets(blocks, { path: doc.path, pageTitle: firstTitle(blocks) || titleFromPath(doc.path) });
}

/** reST lines (with original numbers) to blocks; also used for MyST `{eval-rst}` fences. */
export function rstToBlocks(lines: readonly SourceLine[]): DocBlock[] {
  return parseRst(lines, { levels: [], highlight: 'default' }, true);
}

function parseRst(lines: readonly SourceLine[], ctx: RstContext, allowTitles: boolean): DocBlock[] {
  const blocks: DocBlock[] = [];
  const numbers: AutoNumbers = new Map();
  let para: SourceLine[] = [];
  let i = 0;
  while (i < lines.length) {
    const text = lines[i].text;
    if (isBlank(text)) {
      i = closeParagraph(lines, i, para, ctx, blocks, numbers);
      para = [];
      continue;
    }
    if (allowTitles && para.length === 0) {
      const title = sectionTitle(lines, i);
      if (title) {
        if (!ctx.levels.includes(title.style)) ctx.levels.push(title.style);
        const heading = cleanRstTitle(title.text);
        if (heading !== '') blocks.push({ kind: 'heading', level: ctx.levels.indexOf(title.style) + 1, text: heading, line: title.line });
        numbers.clear();
        i = title.next;
        continue;
      }
    }
    const explicit = EXPLICIT.exec(text);
    if (explicit) {
      closeParagraph(lines, i, para, ctx, blocks, numbers);
      para = [];
      i = explicitMarkup(lines, i, indentWidth(explicit[1]), explicit[2] ?? '', ctx, blocks);
      continue;
    }
    if (para.length === 0 && /^\s*>>>(\s|$)/.test(text)) {
      let end = i;
      while (end < lines.length && !isBlank(lines[end].text)) end++;
      blocks.push({ kind: 'code', code: dedentBlock(lines.slice(i, end).map((l) => l.text)), language: 'pycon', line: lines[i].line });
      i = end;
      continue;
    }
    if (ADORNMENT.test(text) || (TABLE_BORDER.test(text) && /[ +]/.test(text.trim())) || METADATA.test(text)) {
      i++;
      continue;
    }
    para.push(lines[i]);
    i++;
  }
  closeParagraph(lines, lines.length, para, ctx, blocks, numbers);
  return blocks;
}

/** A title with an underline (and optionally a matching overline) starting at `i`. */
function sectionTitle(lines: readonly SourceLine[], i: number): { text: string; style: string; line: number; next: number } | undefined {
  const text = lines[i].text;
  const over = ADORNMENT.exec(text);
  if (over) {
    const title = lines[i + 1];
    const under = lines[i + 2] ? ADORNMENT.exec(lines[i + 2].text) : null;
    if (title && !isBlank(title.text) && !ADORNMENT.test(title.text) && under && under[1] === over[1])
      return { text: title.text.trim(), style: `o${over[1]}`, line: title.line, next: i + 3 };
    return undefined;
  }
  if (indentWidth(text) > 0 || i + 1 >= lines.length) return undefined;
  const under = ADORNMENT.exec(lines[i + 1].text);
  if (!under || /^\.\.(\s|$)/.test(text)) return undefined;
  // A line longer than its underline by far is a paragraph before a transition, not a title.
  if (lines[i + 1].text.trim().length < Math.min(text.trim().length, 3)) return undefined;
  return { text: text.trim(), style: `u${under[1]}`, line: lines[i].line, next: i + 2 };
}

/**
 * Emits the paragraph collected before `i`. A paragraph ending in `::` introduces the
 * literal block indented under it; returns the index after that block (or `i + 1`).
 */
function closeParagraph(lines: readonly SourceLine[], i: number, para: SourceLine[], ctx: RstContext, blocks: DocBlock[], numbers: AutoNumbers): number {
  if (para.length === 0) return i + 1;
  const last = para[para.length - 1].text;
  if (!/::\s*$/.test(last)) {
    pushParagraph(para, blocks, numbers);
    return i + 1;
  }
  const fixed = /^\s*::\s*$/.test(last) ? '' : last.replace(/\s+::\s*$/, '').replace(/::\s*$/, ':');
  pushParagraph([...para.slice(0, -1), { text: fixed, line: para[para.length - 1].line }], blocks, numbers);
  const base = LIST_ITEM.test(para[0].text) ? (LIST_ITEM.exec(para[0].text)?.[0].length ?? 0) : indentWidth(para[0].text);
  let start = i;
  while (start < lines.length && isBlank(lines[start].text)) start++;
  if (start >= lines.length || indentWidth(lines[start].text) <= base) return i + 1;
  let end = start;
  while (end < lines.length && (isBlank(lines[end].text) || indentWidth(lines[end].text) > base)) end++;
  const code = dedentBlock(lines.slice(start, end).map((l) => l.text));
  const language = sessionLanguage(code) || highlightLanguage(ctx.highlight, code);
  blocks.push({ kind: 'code', code, language, line: lines[start].line });
  return end;
}

function pushParagraph(lines: readonly SourceLine[], blocks: DocBlock[], numbers: AutoNumbers): void {
  const para = autoNumbered(lines, numbers);
  let joined = '';
  for (const p of para) {
    const t = p.text.trim();
    if (t === '') continue;
    const row = t.startsWith('|')
      ? t
          .replace(/^\|\s?/, '')
          .replace(/\s*\|$/, '')
          .replace(/\s+\|\s+/g, ' | ')
      : t;
    const item = LIST_ITEM.test(p.text);
    if (joined !== '') joined += item || t.startsWith('|') ? '\n' : ' ';
    // A list item keeps its indentation: a nested list is indented under its parent's text.
    joined += item ? ' '.repeat(indentWidth(p.text)) + row : row;
  }
  const text = cleanKeepingIndent(joined, cleanRstInline);
  if (text !== '') blocks.push({ kind: 'prose', text, line: para[0].line });
}

/**
 * Directives, comments, link targets, substitution definitions and footnotes at `i`, with
 * the block indented under them. Returns the index after the block.
 */
function explicitMarkup(lines: readonly SourceLine[], i: number, indent: number, rest: string, ctx: RstContext, blocks: DocBlock[]): number {
  let end = i + 1;
  while (end < lines.length && (isBlank(lines[end].text) || indentWidth(lines[end].text) > indent)) end++;
  const directive = DIRECTIVE.exec(rest.trim());
  if (!directive) return end;
  const name = directive[1];
  const argument = directive[2] ?? '';
  const content = directiveContent(lines.slice(i + 1, end));
  const line = lines[i].line;
  if (name === 'shelfmark:api') {
    const entry = apiEntryBlock(argument, line);
    if (entry) blocks.push(entry);
    blocks.push(...parseRst(content, ctx, false));
    return end;
  }
  // A picture is not shown: the paragraph announcing it ends as a statement.
  if (name === 'image' || name === 'figure') endAnnouncement(blocks);
  switch (classifyDirective(name)) {
    case 'highlight':
      ctx.highlight = /^default$/i.test(argument.trim()) ? 'default' : /^(none|text)$/i.test(argument.trim()) ? '' : normaliseLanguage(argument);
      break;
    case 'code': {
      const code = dedentBlock(content.map((l) => l.text));
      const language = normaliseLanguage(argument) || sessionLanguage(code) || defaultCodeLanguage(name, ctx.highlight, code);
      blocks.push({ kind: 'code', code, language, line });
      break;
    }
    case 'admonition': {
      const inner = parseRst(content, ctx, false);
      const lead = cleanRstInline(admonitionLead(name, argument));
      const first = inner[0];
      if (lead !== '' && first?.kind === 'prose') inner[0] = { ...first, text: `${lead} ${first.text}` };
      else if (lead !== '') inner.unshift({ kind: 'prose', text: lead, line });
      blocks.push(...inner);
      break;
    }
    case 'object': {
      const signature = objectSignature(name, argument);
      if (signature !== '') blocks.push({ kind: 'prose', text: signature, line });
      blocks.push(...parseRst(content, ctx, false));
      break;
    }
    case 'container':
      blocks.push(...parseRst(content, ctx, false));
      break;
    case 'drop':
      break;
  }
  return end;
}

/** The code block of an API entry written by includes/autodoc.ts or mkdocstrings.ts (as JSON) at `line`, or undefined. */
export function apiEntryBlock(argument: string, line: number): CodeBlock | undefined {
  let e: Record<string, unknown>;
  try {
    e = JSON.parse(argument) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  if (str(e.code) === '') return undefined;
  const name = str(e.name);
  return {
    kind: 'code',
    code: str(e.code),
    language: str(e.language),
    line,
    entry: { title: str(e.title), ...(name ? { name } : {}), description: readableDocstring(str(e.description)) },
  };
}

/** Docstring fields (`:param x:`, `:returns:`, `:raises E:`) as the words Sphinx renders them with. */
const FIELD =
  /^([ \t]*):(param|parameter|arg|argument|key|keyword|type|raises?|except|exception|returns?|rtype|yields?|var|ivar|cvar|vartype|internal|private|public|meta)\b[ \t]*([^:\n]*):[ \t]*/gm;
const FIELD_LABEL: Record<string, string> = {
  returns: 'Returns',
  return: 'Returns',
  rtype: 'Return type',
  yields: 'Yields',
  yield: 'Yields',
  raises: 'Raises',
  raise: 'Raises',
  except: 'Raises',
  exception: 'Raises',
  type: 'Type of',
  vartype: 'Type of',
};

/**
 * A Python docstring (reST) as readers of the rendered page see it: directives such as
 * `.. versionadded::` rendered by the reST parser, roles as text, fields as `x: text`; code
 * left out (a docstring's examples are snippets of their own).
 */
export function readableDocstring(text: string): string {
  if (!/[:`*]|\.\./.test(text)) return text.trim();
  const fields = text.replace(FIELD, (_m, indent: string, kind: string, name: string) => {
    if (kind === 'internal' || kind === 'private' || kind === 'public' || kind === 'meta') return indent;
    const label = FIELD_LABEL[kind];
    const target = name.trim().split(/\s+/).pop() ?? '';
    return `${indent}${label ? `${label}${target ? ` ${target}` : ''}` : target}: `;
  });
  return rstToBlocks(numberLines(fields))
    .filter((b): b is Extract<DocBlock, { kind: 'prose' }> => b.kind === 'prose')
    .map((b) => b.text)
    .join('\n\n');
}

/** A directive's body without its option lines, dedented, blank lines around it removed. */
function directiveContent(body: readonly SourceLine[]): SourceLine[] {
  let k = 0;
  while (k < body.length && !isBlank(body[k].text) && OPTION.test(body[k].text)) k++;
  const rest = body.slice(k);
  let start = 0;
  let stop = rest.length;
  while (start < stop && isBlank(rest[start].text)) start++;
  while (stop > start && isBlank(rest[stop - 1].text)) stop--;
  const content = rest.slice(start, stop);
  let common = Infinity;
  for (const l of content) if (!isBlank(l.text)) common = Math.min(common, indentWidth(l.text));
  if (!Number.isFinite(common)) return [];
  return content.map((l) => ({ text: stripIndent(l.text, common), line: l.line }));
}
