/**
 * Second pass over Markdown: unwrapped lines into blocks. ATX and setext headings, fenced
 * code at any indentation (fences inside list items are the common case), indented code
 * outside lists, and paragraphs, lists and tables as prose.
 */
import { cleanHeadingText, cleanMarkdownProse } from './markdown-inline';
import { FENCE_OPEN, unwrapMarkdown } from './markdown-unwrap';
import { admonitionLead, classifyDirective, defaultCodeLanguage, objectSignature } from './rst-directives';
import { apiEntryBlock, rstToBlocks } from './rst';
import type { DocBlock } from './sections';
import { endAnnouncement, opensWithMedia } from './blocks';
import { applyDiffMarkers, hideRustdocLines, fenceMeta } from './fence-meta';
import { cleanKeepingIndent, dedentBlock, indentWidth, isBlank, normaliseLanguage, sessionLanguage, stripIndent, type SourceLine } from './text-utils';

export interface BlockOptions {
  /** CommonMark's four-space code blocks; off for MDX, which has none. */
  indentedCode: boolean;
}

const ATX = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])([ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])([ \t]|$)/;
/** A list item at any indentation: inside a list, a deeper one is nested in the item above it. */
const NESTED_ITEM = /^[ \t]*([-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const LINK_DEFINITION = /^ {0,3}\[[^\]]{1,200}\]:[ \t]*\S+[ \t]*("[^"]*"|'[^']*'|\([^)]*\))?[ \t]*$/;
/** Diagrams and formulas are rendered pictures, not code anyone would copy. */
const NOT_CODE = new Set(['mermaid', 'math', 'katex', 'plantuml']);
/** MyST: a fence whose info is `{name} argument` is a directive, unlike Pandoc's `{.python}`. */
const MYST_DIRECTIVE = /^\{([A-Za-z][\w:.-]*)\}\s*(.*)$/;

/** Turns unwrapped Markdown lines into heading, prose and code blocks. */
export function markdownBlocks(lines: readonly SourceLine[], options: BlockOptions): DocBlock[] {
  const blocks: DocBlock[] = [];
  let para: SourceLine[] = [];
  let inList = false;
  let afterBreak = true;
  const nesting = new ListNesting();
  const flush = () => {
    if (para.length > 0) pushProse(blocks, para, inList ? nesting : undefined);
    para = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const { text, line } = lines[i];
    if (isBlank(text)) {
      flush();
      if (lines[i].media) endAnnouncement(blocks);
      afterBreak = true;
      continue;
    }
    const fence = FENCE_OPEN.exec(text);
    if (fence && !(fence[2][0] === '`' && fence[3].includes('`'))) {
      flush();
      i = readFence(lines, i, fence[1], fence[2], fence[3], blocks);
      afterBreak = true;
      continue;
    }
    if (options.indentedCode && para.length === 0 && afterBreak && !inList && indentWidth(text) >= 4) {
      i = readIndentedCode(lines, i, blocks);
      continue;
    }
    const atx = ATX.exec(text);
    if (atx) {
      flush();
      const heading = cleanHeadingText(stripClosingHashes(text.slice(atx[0].length)));
      if (heading !== '') blocks.push({ kind: 'heading', level: atx[1].length, text: heading, line });
      inList = false;
      afterBreak = true;
      continue;
    }
    const setext = SETEXT.exec(text);
    if (setext && para.length > 0 && !LIST_ITEM.test(para[0].text) && !para[0].text.trimStart().startsWith('|')) {
      const heading = cleanHeadingText(para.map((p) => p.text.trim()).join(' '));
      if (heading !== '') blocks.push({ kind: 'heading', level: setext[1][0] === '=' ? 1 : 2, text: heading, line: para[0].line });
      para = [];
      inList = false;
      afterBreak = true;
      continue;
    }
    if (THEMATIC_BREAK.test(text)) {
      flush();
      afterBreak = true;
      continue;
    }
    if (para.length === 0 && LINK_DEFINITION.test(text)) continue;
    if (isTableDelimiter(text)) continue;
    if (LIST_ITEM.test(text)) {
      if (!inList) nesting.reset();
      inList = true;
    } else if (para.length === 0 && afterBreak && indentWidth(text) === 0) inList = false;
    para.push(lines[i]);
    afterBreak = false;
  }
  flush();
  return blocks;
}

/** Reads a fenced block opening at `start`; returns the index of its last line. */
function readFence(lines: readonly SourceLine[], start: number, indent: string, marker: string, info: string, blocks: DocBlock[]): number {
  const width = indentWidth(indent);
  const body: string[] = [];
  let i = start + 1;
  for (; i < lines.length; i++) {
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[i].text);
    if (close && close[1][0] === marker[0] && close[1].length >= marker.length) break;
    body.push(stripIndent(lines[i].text, width));
  }
  const myst = MYST_DIRECTIVE.exec(info.trim());
  if (myst) {
    const numbered = body.map((text, k) => ({ text, line: lines[start + 1 + k].line }));
    blocks.push(...mystDirective(myst[1], myst[2] ?? '', numbered, lines[start].line));
  } else {
    const labelled = normaliseLanguage(info);
    const meta = fenceMeta(info);
    if (!NOT_CODE.has(labelled)) {
      const code = dedentBlock(hideRustdocLines(applyDiffMarkers(body, meta), labelled));
      blocks.push({
        kind: 'code',
        code,
        language: labelled || (info.trim() === '' ? sessionLanguage(code) : ''),
        line: lines[start].line,
        ...(meta.file ? { file: meta.file } : {}),
      });
    }
  }
  return Math.min(i, lines.length - 1);
}

/** An API entry includes/mkdocstrings.ts wrote (its JSON in the fence): a code block with its own title. */
function apiEntryBlocks(content: readonly SourceLine[], line: number): DocBlock[] {
  const entry = apiEntryBlock(content.map((l) => l.text).join('\n'), line);
  return entry ? [entry] : [];
}

/**
 * A MyST directive fence (```{note}, ```{code-block} python, ```{eval-rst}): the same
 * decisions as for the reST directive, the body read as Markdown (or reST for eval-rst).
 */
function mystDirective(name: string, argument: string, body: SourceLine[], line: number): DocBlock[] {
  let k = 0;
  // Options come as `:key: value` lines or as a YAML block between `---` lines.
  if (body[0]?.text.trim() === '---') {
    const end = body.findIndex((l, j) => j > 0 && l.text.trim() === '---');
    k = end > 0 ? end + 1 : 0;
  }
  while (k < body.length && /^\s*:[\w-]+:(\s|$)/.test(body[k].text)) k++;
  const content = body.slice(k);
  if (name === 'eval-rst') return rstToBlocks(content);
  if (name === 'shelfmark:api') return apiEntryBlocks(content, line);
  switch (classifyDirective(name)) {
    case 'code': {
      const code = dedentBlock(content.map((l) => l.text));
      return [{ kind: 'code', code, language: normaliseLanguage(argument) || defaultCodeLanguage(name, '', code), line }];
    }
    case 'drop':
    case 'highlight':
      return [];
    case 'admonition': {
      const inner = markdownBlocks(unwrapMarkdown(content, { mdx: false }), { indentedCode: true });
      const lead = cleanMarkdownProse(admonitionLead(name, argument));
      const first = inner[0];
      if (lead !== '' && first?.kind === 'prose') inner[0] = { ...first, text: `${lead} ${first.text}` };
      else if (lead !== '') inner.unshift({ kind: 'prose', text: lead, line });
      return inner;
    }
    case 'object': {
      const signature = objectSignature(name, argument);
      const inner = markdownBlocks(unwrapMarkdown(content, { mdx: false }), { indentedCode: true });
      return signature === '' ? inner : [{ kind: 'prose', text: signature, line }, ...inner];
    }
    case 'container':
      return markdownBlocks(unwrapMarkdown(content, { mdx: false }), { indentedCode: true });
  }
}

/** Reads an indented code block starting at `start`; returns the index of its last line. */
function readIndentedCode(lines: readonly SourceLine[], start: number, blocks: DocBlock[]): number {
  const body: string[] = [];
  let i = start;
  for (; i < lines.length; i++) {
    const t = lines[i].text;
    if (!isBlank(t) && indentWidth(t) < 4) break;
    body.push(stripIndent(t, 4));
  }
  const code = dedentBlock(body);
  blocks.push({ kind: 'code', code, language: sessionLanguage(code), line: lines[start].line });
  return i - 1;
}

function stripClosingHashes(s: string): string {
  const t = s.trim();
  let end = t.length;
  while (end > 0 && t[end - 1] === '#') end--;
  // "# C#" keeps its hash: a closing sequence must be preceded by a space.
  if (end < t.length && (end === 0 || t[end - 1] === ' ' || t[end - 1] === '\t')) return t.slice(0, end).trim();
  return t;
}

/** `|---|:--:|` rows separate a table's header from its body and say nothing themselves. */
function isTableDelimiter(text: string): boolean {
  return text.includes('|') && text.includes('--') && /^[\s|:-]+$/.test(text);
}

/**
 * Joins a paragraph's lines: wrapped prose with spaces, but list items, table rows and hard
 * breaks keep their own lines.
 */
function pushProse(blocks: DocBlock[], para: readonly SourceLine[], list?: ListNesting): void {
  let joined = '';
  para.forEach((p, k) => {
    const raw = p.text;
    const item = list !== undefined && NESTED_ITEM.test(raw);
    const text = raw.trim().startsWith('|') ? tableRow(raw) : item ? list.line(raw) : raw.trim();
    if (k > 0) {
      const ownLine =
        item || LIST_ITEM.test(raw) || raw.trim().startsWith('|') || / {2,}$|\\$/.test(para[k - 1].text) || para[k - 1].text.trim().startsWith('|');
      joined += ownLine ? '\n' : ' ';
    }
    joined += text.replace(/\\$/, '');
  });
  const cleaned = cleanKeepingIndent(joined, cleanMarkdownProse);
  if (cleaned !== '') blocks.push({ kind: 'prose', text: cleaned, line: para[0].line });
  else if (opensWithMedia(para[0].text)) endAnnouncement(blocks);
}

/**
 * The items open in the list being read, so a nested item keeps its place under its parent
 * (indented by the parent's marker width, as Markdown nests them) instead of reading as a
 * sibling, or as words run into the line above when it is indented four spaces or more.
 */
class ListNesting {
  private open: { indent: number; prefix: string; width: number }[] = [];

  reset(): void {
    this.open = [];
  }

  /** An item's line as a reader sees it: its marker and text, indented under its parent item. */
  line(raw: string): string {
    const indent = indentWidth(raw);
    const text = raw.trim();
    while (this.open.length > 0 && this.open[this.open.length - 1].indent >= indent) this.open.pop();
    const parent = this.open[this.open.length - 1];
    const prefix = parent ? parent.prefix + ' '.repeat(parent.width) : '';
    const marker = NESTED_ITEM.exec(text)?.[1] ?? '-';
    this.open.push({ indent, prefix, width: marker.length + 1 });
    return prefix + text;
  }
}

/** `| a | b |` → `a | b`. */
function tableRow(raw: string): string {
  return raw
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .trim()
    .replace(/\s*\|\s*/g, ' | ');
}
