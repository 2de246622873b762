/**
 * A section as its readers see it: one snippet holding its prose with the code examples in
 * place (Markdown, each example fenced), not an info snippet and code "twins" ranked apart.
 * A section longer than the part size is cut into parts at block boundaries, never between a
 * sentence that announces an example and the example: prose and the code right after it form
 * one unit, and units are packed into parts in document order. Only a unit larger than a part
 * is cut inside (its prose at paragraphs, its code at blank lines). Generated API entries
 * (Sphinx autodoc) keep a snippet of their own, titled by the entry.
 */
import type { ParsedSnippet } from '../types';
import { fencedCode } from '../../search/format/fence';
import type { CodeBlock, ProseBlock, SnippetSource } from './blocks';
import { splitLongText, trimBlock } from './text-utils';

export const PART_LIMITS = {
  /** A part holds at most this many characters of prose and code (about 600–800 tokens). */
  chars: 2400,
  /** A section whose prose is shorter than this and that has no code is a heading with a line. */
  minInfo: 40,
  /** A code snippet's description (the prose that introduces its first example). */
  description: 600,
} as const;

/** Fence lines and the blank lines around a code block. */
const FENCE_OVERHEAD = 12;

type Item = ProseBlock | CodeBlock;

/** Prose followed by the code examples it introduces (either may be empty). */
interface Unit {
  prose: ProseBlock[];
  code: CodeBlock[];
}

/** The section a snippet's parts come from. */
export interface SectionInput {
  title: string;
  breadcrumb: string[];
  line: number;
  items: Item[];
}

const size = (item: Item): number => (item.kind === 'prose' ? item.text.length + 2 : item.code.length + FENCE_OVERHEAD);

/** The section's units: a new unit starts at prose that follows code. */
function unitsOf(items: readonly Item[]): Unit[] {
  const units: Unit[] = [];
  let current: Unit = { prose: [], code: [] };
  for (const item of items) {
    if (item.kind === 'prose') {
      if (current.code.length > 0) {
        units.push(current);
        current = { prose: [], code: [] };
      }
      current.prose.push(item);
    } else {
      current.code.push(item);
    }
  }
  if (current.prose.length + current.code.length > 0) units.push(current);
  return units;
}

/** Code longer than `max` cut at blank lines (else at line ends) into pieces of at most `max`. */
export function splitCode(block: CodeBlock, max: number): CodeBlock[] {
  if (block.code.length + FENCE_OVERHEAD <= max) return [block];
  const room = max - FENCE_OVERHEAD;
  const lines = block.code.split('\n');
  const pieces: CodeBlock[] = [];
  let start = 0;
  while (start < lines.length) {
    let end = start;
    let length = 0;
    let lastBlank = -1;
    while (end < lines.length && length + lines[end].length + 1 <= room) {
      if (lines[end].trim() === '' && end > start) lastBlank = end;
      length += lines[end].length + 1;
      end++;
    }
    if (end === start)
      end = start + 1; // one line longer than a part: it goes alone
    else if (end < lines.length && lastBlank > start + (end - start) / 2) end = lastBlank;
    const code = lines
      .slice(start, end)
      .join('\n')
      .replace(/^\n+|\s+$/g, '');
    // The piece's line is that of its first line, not of the blank line it was cut at.
    const skipped = lines.slice(start, end).findIndex((l) => l !== '');
    if (code !== '') pieces.push({ ...block, code, line: block.line + start + Math.max(0, skipped) });
    start = end;
  }
  return pieces;
}

/** Prose ending with a colon announces what comes right after it (an example, a list, the next section). */
export function announces(item: ProseBlock): boolean {
  return /:\s*$/.test(item.text);
}

/** Items packed into parts of at most `max` characters; a unit stays whole unless it alone exceeds `max`. */
function packUnits(units: readonly Unit[], max: number): Item[][] {
  const parts: Item[][] = [];
  let part: Item[] = [];
  let length = 0;
  const flush = () => {
    if (part.length > 0) parts.push(part);
    part = [];
    length = 0;
  };
  // Ends the part before `next` (`needed` characters of it must follow in the new part). A
  // paragraph announcing what follows ("…looks like this:" before a list) opens the next part
  // with it instead of ending this one, when both fit there.
  const breakBefore = (needed: number) => {
    const last = part[part.length - 1];
    const carried = part.length > 1 && last?.kind === 'prose' && announces(last) && size(last) + needed <= max ? part.pop() : undefined;
    if (carried) length -= size(carried);
    flush();
    if (carried) {
      part.push(carried);
      length += size(carried);
    }
  };
  const add = (item: Item) => {
    if (length > 0 && length + size(item) > max) breakBefore(size(item));
    part.push(item);
    length += size(item);
  };
  for (const unit of units) {
    const items: Item[] = [...unit.prose, ...unit.code];
    const total = items.reduce((n, i) => n + size(i), 0);
    if (total <= max) {
      if (length > 0 && length + total > max) flush();
      for (const item of items) {
        part.push(item);
        length += size(item);
      }
      continue;
    }
    // A unit larger than a part: its prose in order, then its code in pieces. The paragraph
    // that announces the code opens the part of the code's first piece, which is cut to leave
    // it room (unless it is itself half a part): "as follows:" never ends a part without it.
    const lead = unit.prose[unit.prose.length - 1];
    // A paragraph announcing the lead ("…the right tags:" before a list) goes with it: room for both.
    const announcer = unit.prose[unit.prose.length - 2];
    const leading = lead ? size(lead) + (announcer && announces(announcer) && size(lead) + size(announcer) <= max / 2 ? size(announcer) : 0) : 0;
    const room = lead && leading <= max / 2 ? max - leading : max;
    const pieces = unit.code.flatMap((block, b) => splitCode(block, b === 0 ? room : max));
    for (const item of unit.prose) {
      if (item === lead && pieces.length > 0 && length > 0 && length + size(item) + size(pieces[0]) > max) breakBefore(size(item) + size(pieces[0]));
      add(item);
    }
    for (const piece of pieces) add(piece);
  }
  flush();
  return parts;
}

/** A part as Markdown: its prose and fenced code in document order. */
export function partMarkdown(items: readonly Item[]): string {
  return items
    .map((item) => (item.kind === 'prose' ? trimBlock(item.text) : fencedCode(item.code, item.language, item.file)))
    .filter((text) => text.trim() !== '')
    .join('\n\n');
}

/**
 * The snippets of one section, in document order. `describe` gives the prose that introduces
 * a code block when its part holds none before it (sections.ts: the paragraph before it in the
 * section, else the section's or an ancestor's first paragraph).
 */
export function sectionSnippets(section: SectionInput, source: SnippetSource, describe: (code: CodeBlock) => string): ParsedSnippet[] {
  const out: ParsedSnippet[] = [];
  const plain: Item[] = [];
  // Prose announcing the entries that follow it ("The following error classes exist:") lists
  // their names, so it does not end on a colon with nothing after it.
  const listings: { block: ProseBlock; names: string[] }[] = [];
  let listing: { block: ProseBlock; names: string[] } | undefined;
  for (const item of section.items) {
    if (item.kind === 'code' && item.entry) {
      out.push(...entrySnippets(section, source, item, item.entry));
      const last = plain[plain.length - 1];
      if (listing) listing.names.push(item.entry.title);
      else if (last?.kind === 'prose' && announces(last)) {
        listing = { block: { kind: 'prose', text: '', line: item.line }, names: [item.entry.title] };
        listings.push(listing);
        plain.push(listing.block);
      }
      continue;
    }
    if (item.kind === 'prose' ? item.text.trim() !== '' : item.code !== '') {
      plain.push(item);
      listing = undefined;
    }
  }
  for (const { block, names } of listings) block.text = entryList(names);
  const hasCode = plain.some((i) => i.kind === 'code');
  const proseLength = plain.reduce((n, i) => n + (i.kind === 'prose' ? i.text.trim().length : 0), 0);
  if (!hasCode && proseLength < PART_LIMITS.minInfo) return out;
  const parts = packUnits(unitsOf(plain), PART_LIMITS.chars);
  const snippets = parts.map((items, k): ParsedSnippet => {
    const codes = items.filter((i): i is CodeBlock => i.kind === 'code');
    const first = codes[0];
    return {
      kind: first ? 'code' : 'info',
      title: section.title,
      breadcrumb: section.breadcrumb,
      pageTitle: source.pageTitle,
      description: first ? leadIn(items, first) || describe(first) : '',
      content: partMarkdown(items),
      language: first?.language ?? '',
      code: codes.map((c) => c.code).join('\n\n'),
      path: source.path,
      // The first part points at the heading so a link lands on the section.
      startLine: k === 0 ? section.line : items[0].line,
      ...(parts.length > 1 ? { part: k } : {}),
    };
  });
  // Entries generated inside the section follow its own text.
  return [...snippets, ...out];
}

/** Entry titles as a Markdown list: `class BadRequest` → `BadRequest`; a long run ends with how many more. */
export function entryList(titles: readonly string[], max = 40): string {
  const names = titles.map(
    (t) =>
      `- \`${t.replace(/^(?:(?:async|abstract|static|class|exception|function|method|attribute|property|data|decorator|module|classmethod|staticmethod)\s+)+/, '')}\``,
  );
  const more = names.length - max;
  return [...names.slice(0, max), ...(more > 0 ? [`- …and ${more} more`] : [])].join('\n');
}

/** The prose right before `code` within its part (joined paragraphs), clipped from the start. */
function leadIn(items: readonly Item[], code: CodeBlock): string {
  const at = items.indexOf(code);
  const before: string[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind !== 'prose') break;
    before.unshift(item.text.trim());
  }
  const text = before.join('\n\n');
  return text.length <= PART_LIMITS.description ? text : `…${text.slice(text.length - PART_LIMITS.description + 1).replace(/^\S*\s/, '')}`;
}

/**
 * An API entry's snippets: its whole description (a docstring's parameters, returns and
 * notes are what an API question asks about) and its code (the signature, a class's member
 * signatures). An entry longer than a part is cut into numbered parts: the first paragraph
 * and the code open it (code longer than a part cut at blank lines), the rest of the
 * description follows in order. Every part keeps the entry's summary as its description.
 */
function entrySnippets(section: SectionInput, source: SnippetSource, code: CodeBlock, entry: NonNullable<CodeBlock['entry']>): ParsedSnippet[] {
  const summary = entry.description.slice(0, PART_LIMITS.description);
  const paragraphs = entry.description
    .split(/\n\s*\n/)
    .map((text) => text.trim())
    .filter((text) => text !== '')
    .flatMap((text) => splitLongText(text, PART_LIMITS.chars / 2))
    .map((text): ProseBlock => ({ kind: 'prose', text, line: code.line }));
  const whole: Item[] = [...paragraphs, code];
  const fits = whole.reduce((n, item) => n + size(item), 0) <= PART_LIMITS.chars;
  const parts = fits ? [whole] : packUnits(unitsOf([...paragraphs.slice(0, 1), code, ...paragraphs.slice(1)]), PART_LIMITS.chars);
  return parts.map((items, k) => {
    const codes = items.filter((i): i is CodeBlock => i.kind === 'code');
    const first = codes[0];
    return {
      kind: first ? 'code' : 'info',
      title: entry.title,
      breadcrumb: [...section.breadcrumb, entry.name ?? entry.title],
      pageTitle: source.pageTitle,
      description: summary,
      content: partMarkdown(items),
      language: first?.language ?? code.language,
      code: codes.map((c) => c.code).join('\n\n'),
      path: source.path,
      startLine: k === 0 ? code.line : (first?.line ?? code.line),
      ...(parts.length > 1 ? { part: k } : {}),
    };
  });
}
