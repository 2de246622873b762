/**
 * The one place that decides what a snippet is. Every format parser reduces its document to
 * a flat list of blocks (headings, prose paragraphs, code blocks); this module groups them
 * into sections by heading, and section-parts.ts turns each section into snippets that keep
 * its prose and its code examples together, in order (parts of a long section at block
 * boundaries).
 */
import type { ParsedSnippet } from '../types';
import { announces, PART_LIMITS, sectionSnippets } from './section-parts';
import type { CodeBlock, DocBlock, ProseBlock, SnippetSource } from './blocks';
import { splitLongText, trimBlock } from './text-utils';

export type { HeadingBlock, ProseBlock, CodeBlock, DocBlock, SnippetSource } from './blocks';

/** Size limits of the snippets, in characters. */
export const SNIPPET_LIMITS = {
  /** An info snippet's content is cut into chunks of at most this many characters. */
  infoChunk: 1500,
  /** Sections with less prose than this are headings with a line, not worth a snippet. */
  minInfo: 40,
  description: 600,
  /** A paragraph shorter than this ("For example:") is joined with the one before it. */
  shortLeadIn: 100,
  code: 6000,
  /** A code line is cut after this many characters (LONG_LINE). */
  codeLine: 400,
} as const;

/**
 * The page's title: its first heading when that is level 1 (in most formats), or "". A level-1
 * heading after other headings divides the page ("# Recipes" halfway down a README that opens
 * with "## First create a store") and does not name it.
 */
export function firstTitle(blocks: readonly DocBlock[]): string {
  const first = blocks.find((b) => b.kind === 'heading');
  return first?.kind === 'heading' && first.level === 1 ? first.text : '';
}

interface Section {
  title: string;
  breadcrumb: string[];
  line: number;
  parent: number;
  items: (ProseBlock | CodeBlock)[];
}

/**
 * Turns a document's blocks into snippets. Pure and total: any block list gives an array.
 * A section's snippets hold its prose with its code examples in place (section-parts.ts).
 */
export function blocksToSnippets(blocks: readonly DocBlock[], source: SnippetSource): ParsedSnippet[] {
  const sections = groupSections(blocks, source.pageTitle);
  const out: ParsedSnippet[] = [];
  // The closing announcement of the section before (announcementOfNext), which opens this one.
  let lead: ProseBlock[] = [];
  sections.forEach((section, index) => {
    const items: (ProseBlock | CodeBlock)[] = lead;
    lead = [];
    for (const item of section.items) {
      if (item.kind === 'prose') {
        // Prose longer than a part (a long list) is cut; after a short paragraph announcing it
        // ("…exposes the following functions and properties:") its first piece leaves that
        // paragraph room, so the two open one part together.
        const before = items[items.length - 1];
        const lead = before?.kind === 'prose' && announces(before) && before.text.length <= PART_LIMITS.chars / 2 ? before.text.length + 4 : 0;
        for (const text of splitLongText(trimBlock(item.text), PART_LIMITS.chars, PART_LIMITS.chars - lead)) items.push({ ...item, text });
        continue;
      }
      const code = finishCode(item.code, item.language);
      if (code !== '') items.push({ ...item, code });
    }
    // A closing paragraph announcing the next section ("…here's what you need to know:") opens it.
    const announcement = announcementOfNext(items, sections, index);
    if (announcement) {
      items.splice(items.indexOf(announcement));
      lead = [announcement];
      if (items.length === 0) return;
    }
    // Text before the first heading has no heading to point at: it starts at its first block.
    const line = index === 0 && items.length > 0 ? items[0].line : section.line;
    const finished = { ...section, items, line };
    out.push(...sectionSnippets(finished, source, (code) => withFile(describeCode(sections, index, code), code.file)));
  });
  return out;
}

/**
 * The paragraph that closes a section announcing the section right after it, a subsection or
 * the next sibling ("Starlette also includes a `StaticFiles` class for serving files in a
 * given directory:" before `### StaticFiles`; "The following middleware implementations are
 * available:" before the first of them): prose after the section's last example, at most a
 * description's length, ending with a colon. Left where it is, it would announce what its
 * snippet does not hold.
 */
function announcementOfNext(items: readonly (ProseBlock | CodeBlock)[], sections: readonly Section[], index: number): ProseBlock | undefined {
  const next = sections[index + 1];
  const last = items[items.length - 1];
  if (!next || (next.parent !== index && next.parent !== sections[index]!.parent) || last?.kind !== 'prose') return undefined;
  return last.text.length <= PART_LIMITS.description && announces(last) ? last : undefined;
}

function groupSections(blocks: readonly DocBlock[], pageTitle: string): Section[] {
  const sections: Section[] = [{ title: pageTitle, breadcrumb: [pageTitle], line: 1, parent: -1, items: [] }];
  // Open headings, outermost first, each with the index of the section it opened.
  const stack: { level: number; text: string; index: number }[] = [];
  for (const block of blocks) {
    if (block.kind !== 'heading') {
      sections[sections.length - 1].items.push(block);
      continue;
    }
    while (stack.length > 0 && stack[stack.length - 1].level >= block.level) stack.pop();
    const parent = stack.length > 0 ? stack[stack.length - 1].index : 0;
    const text = block.text.trim() || pageTitle;
    // A subheading repeating the heading right above it ("# Progress Bar", a line of intro,
    // "## Progress Bar") continues that section: one heading path is one section.
    const above = stack[stack.length - 1];
    if (above && above.index === sections.length - 1 && above.text.toLowerCase() === text.toLowerCase()) continue;
    stack.push({ level: block.level, text, index: sections.length });
    sections.push({
      title: text,
      breadcrumb: breadcrumbOf(
        pageTitle,
        stack.map((s) => s.text),
      ),
      line: block.line,
      parent,
      items: [],
    });
  }
  return sections;
}

/** Page title first, then the headings, without repeating the H1 that is the page title. */
function breadcrumbOf(pageTitle: string, headings: readonly string[]): string[] {
  const out = [pageTitle];
  for (const h of headings) if (h.toLowerCase() !== out[out.length - 1].toLowerCase()) out.push(h);
  return out;
}

/** Joins paragraphs into chunks of at most `max` characters, splitting oversized paragraphs. */
export function chunkProse(paragraphs: readonly ProseBlock[], max: number): { text: string; line: number }[] {
  const chunks: { text: string; line: number }[] = [];
  let current: string[] = [];
  let length = 0;
  let line = 0;
  const flush = () => {
    if (current.length > 0) chunks.push({ text: current.join('\n\n'), line });
    current = [];
    length = 0;
  };
  for (const p of paragraphs) {
    for (const piece of splitLongText(trimBlock(p.text), max)) {
      if (length > 0 && length + 2 + piece.length > max) flush();
      if (current.length === 0) line = p.line;
      current.push(piece);
      length += (length > 0 ? 2 : 0) + piece.length;
    }
  }
  flush();
  return chunks;
}

/**
 * The prose that introduces a code block: the paragraph right before it in its section (the
 * one before that too when it is only a lead-in like "For example:"), skipping sibling code
 * blocks such as the tabs of one example. Without any, the section's first paragraph, then
 * the nearest enclosing section's.
 */
function describeCode(sections: readonly Section[], index: number, code: CodeBlock): string {
  const items = sections[index].items;
  // The block as parsed (the one handed in may be a finished copy or a piece of it).
  let at = -1;
  items.forEach((item, i) => {
    if (item.kind === 'code' && item.line <= code.line) at = i;
  });
  const before: string[] = [];
  let length = 0;
  for (let i = at - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind === 'code') {
      if (before.length > 0) break;
      continue;
    }
    if (before.length > 0 && length >= SNIPPET_LIMITS.shortLeadIn) break;
    before.unshift(item.text);
    length += item.text.length;
  }
  if (before.length > 0) return clip(before.join('\n\n'), SNIPPET_LIMITS.description);
  for (let s = index; s >= 0; s = sections[s].parent) {
    const first = sections[s].items.find((i): i is ProseBlock => i.kind === 'prose');
    if (first) return clip(first.text, SNIPPET_LIMITS.description);
  }
  return '';
}

/** Shortens text to `max` characters, keeping its end when the end is what leads into the code. */
function clip(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  // The sentence right before the code matters most, so long lead-ins keep their tail.
  const tail = t.slice(t.length - max);
  const sentence = tail.search(/[.!?:]\s+\S/);
  if (sentence >= 0 && sentence < max / 2) return tail.slice(sentence + 1).trim();
  const space = tail.indexOf(' ');
  return `...${tail.slice(space >= 0 && space < 40 ? space : 0).trim()}`;
}

const LINE_COMMENT: Record<string, string> = {};
for (const l of 'python py pycon bash sh shell zsh console shell-session yaml yml toml ruby rb r perl dockerfile make makefile powershell ps1 coffee nix elixir ex graphql gql'.split(
  ' ',
))
  LINE_COMMENT[l] = '# ...';
for (const l of 'sql lua haskell hs elm ada'.split(' ')) LINE_COMMENT[l] = '-- ...';
for (const l of 'html xml vue svelte markdown md mdx astro vue-html svg'.split(' ')) LINE_COMMENT[l] = '<!-- ... -->';
for (const l of 'css scss less'.split(' ')) LINE_COMMENT[l] = '/* ... */';
for (const l of 'js javascript jsx mjs cjs ts typescript tsx mts cts java c cpp c++ cs c# csharp go rust rs swift kotlin kt scala php dart json5 jsonc groovy objc objective-c'.split(
  ' ',
))
  LINE_COMMENT[l] = '// ...';

/** A code line longer than a reader reads (an inline data URL, a minified bundle): cut, saying so. */
const LONG_LINE = /^[^\n]{500,}$/gm;

/** Lines that only say "more code here" or "output follows". */
const MARKER_LINE = /^\s*(\.\.\.|…|(\/\/|#|--|;)\s*(\.\.\.|…)|\/\*\s*(\.\.\.|…)\s*\*\/|<!--\s*(\.\.\.|…)\s*-->|output:?)\s*$/i;

/**
 * The code as stored: trailing whitespace trimmed, "" when there is nothing but placeholders,
 * and cut at a line boundary with a comment saying so when it is very long.
 */
export function finishCode(code: string, language: string): string {
  const text = trimBlankLines(code).replace(LONG_LINE, (line) => `${line.slice(0, SNIPPET_LIMITS.codeLine)} …`);
  if (text.trim() === '') return '';
  if (text.split('\n').every((l) => l.trim() === '' || MARKER_LINE.test(l))) return '';
  if (text.length <= SNIPPET_LIMITS.code) return text;
  const cut = text.lastIndexOf('\n', SNIPPET_LIMITS.code);
  const head = text.slice(0, cut > SNIPPET_LIMITS.code / 2 ? cut : SNIPPET_LIMITS.code).trimEnd();
  return `${head}\n${LINE_COMMENT[language] ?? '...'}`;
}

/** Drops leading blank lines and trailing whitespace, keeping the first line's indentation. */
function trimBlankLines(code: string): string {
  const text = code.trimEnd();
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0 && text.slice(start, nl).trim() === ''; nl = text.indexOf('\n', start)) start = nl + 1;
  return text.slice(start);
}

/**
 * The file a fence names, kept with the code's description: in the title it outweighed the
 * section's own words in ranking (measured on the eval set: an API section titled
 * "req.body (index.mjs)" fell below a migration guide).
 */
function withFile(description: string, file: string | undefined): string {
  if (!file) return description;
  return description ? `${description} (file: ${file})` : `File: ${file}`;
}
