/**
 * First pass over Markdown: removes what is not content and unwraps containers, so that the
 * block pass sees plain CommonMark. Block quotes and GitHub alerts lose their `>` markers;
 * MkDocs admonitions (`!!! note`), content tabs (`=== "pip"`) and their indented bodies are
 * dedented; `:::` and `///` admonition markers, MDX `import`/`export`, JSX and HTML tags,
 * HTML comments, `<script>`/`<style>` blocks, include directives and mkdocstrings directives
 * (`::: pkg.Name` with its options: API docs rendered from docstrings at build time) are removed. Fenced code
 * is tracked so nothing inside a fence is ever touched. Removed lines become blank lines,
 * which keeps paragraphs apart and every remaining line on its original number.
 */
import { indentWidth, isBlank, stripIndent, type SourceLine } from './text-utils';
import { codeSpanEnd } from './markdown-spans';
import { stripLeadingTags } from './markdown-jsx';
import { opensWithMedia } from './blocks';
import { markerLead, type MarkerLine } from './rst-directives';

export interface UnwrapOptions {
  /** MDX: ESM and JSX are syntax, indentation never makes code. */
  mdx: boolean;
}

type Container = { kind: 'quote' } | { kind: 'indent'; width: number };

interface Fence {
  char: string;
  length: number;
  /** Containers open when the fence opened; losing one of them ends the fence. */
  depth: number;
}

export const FENCE_OPEN = /^(\s*)(`{3,}|~{3,})(.*)$/;
/**
 * A whole-line ES import (`import { InstallSnippet } from '@site/src/components/InstallSnippet';`):
 * Docusaurus reads `.md` files as MDX too, where it is syntax, not prose.
 */
const ESM_IMPORT_LINE = /^import\s+(?:[\w$*{}\s,]+\s+from\s+)?(['"])[^'"\n]+\1;?\s*$/;

const QUOTE = /^ {0,3}> ?/;
/** A line opening a block of its own (heading, quote, fence, tag, colon fence, table, list item): no lazy continuation. */
const BLOCK_START = /^\s*([#>`~<:|]|[-*+]\s|\d+[.)]\s)/;
/** A line that may start a paragraph: not indented code, not a block of its own, not a container marker. */
const startsParagraph = (text: string) => indentWidth(text) < 4 && !BLOCK_START.test(text) && !/^\s*(\/\/\/|!!!|\?\?\?|===)/.test(text);
const ALERT = /^\s*\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION|INFO|DANGER)\][ \t]*/i;
const MKDOCS_ADMONITION = /^(\s*)(?:!!!|\?\?\?\+?)[ \t]*([\w-]*)(?:[ \t]+"([^"]*)")?[ \t]*$/;
const CONTENT_TAB = /^(\s*)===\+?[ \t]+"[^"]*"[ \t]*$/;
/** `::: tip Title`, `:::tip[Title]`, and MyST's `:::{warning}` (its directive name in braces). */
const COLON_FENCE = /^\s*:{3,}[ \t]*(?:\{([\w-]+)\}|([\w-]*))(.*)$/;
const SLASH_BLOCK = /^\s*\/{3,}(?:[ \t]+([\w-]+))?(?:[ \t]*\|[ \t]*(.*))?[ \t]*$/;
/** FastAPI `{* file *}` and MkDocs `--8<--` includes (files we cannot see), MyST `(label)=` targets. */
const INCLUDE = /^\s*(\{[*!%].*[*!%]\}|-{1,2}8<-{1,2}.*|\([\w.:-]+\)=)\s*$/;
const RAW_BLOCK = /^\s*<(script|style)\b/i;
/** mkdocstrings' `::: package.module.Name` (API docs rendered from Python docstrings at build time). */
const MKDOCSTRINGS = /^(\s*):::[ \t]+([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)[ \t]*$/;

/** Returns the document's content lines with containers unwrapped and non-content blanked. */
export function unwrapMarkdown(lines: readonly SourceLine[], options: UnwrapOptions): SourceLine[] {
  const out: SourceLine[] = [];
  const stack: Container[] = [];
  let fence: Fence | undefined;
  let closeComment = '';
  let rawEnd: RegExp | undefined;
  let esm = false;
  let htmlBlock = false;
  let lastBlank = true;
  /** Where an admonition's lead ("Warning:") was written, to start the body's first paragraph. */
  let lead: { text: string; index: number } | undefined;
  const emit = (text: string, line: number, media?: boolean) => {
    if (lead && !isBlank(text)) {
      // Blank lines between the marker and its body: the lead moves onto the body's first line.
      const gap = out.length - 1 > lead.index;
      if (gap && startsParagraph(text)) {
        out[lead.index] = { ...out[lead.index], text: '' };
        text = `${/^\s*/.exec(text)?.[0] ?? ''}${lead.text} ${text.trimStart()}`;
      }
      lead = undefined;
    }
    out.push(media ? { text, line, media } : { text, line });
    lastBlank = isBlank(text);
  };

  for (let i = 0; i < lines.length; i++) {
    const { line } = lines[i];
    let { rest, matched } = matchContainers(lines[i].text, stack);
    if (matched < stack.length) {
      const lazy = !fence && stack[matched].kind === 'quote' && !lastBlank && !isBlank(rest) && !BLOCK_START.test(rest);
      if (!lazy) {
        stack.length = matched;
        if (fence && fence.depth > matched) fence = undefined;
      }
    }

    if (fence) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(rest);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length) fence = undefined;
      emit(rest, line);
      continue;
    }
    if (rawEnd) {
      if (rawEnd.test(rest)) rawEnd = undefined;
      emit('', line);
      continue;
    }
    if (closeComment) {
      const end = rest.indexOf(closeComment);
      if (end < 0) {
        emit('', line);
        continue;
      }
      rest = rest.slice(end + closeComment.length);
      closeComment = '';
    }
    if (esm && isBlank(rest)) esm = false;
    if (esm || isBlank(rest)) {
      htmlBlock = false;
      emit('', line);
      continue;
    }

    for (let q = QUOTE.exec(rest); q; q = QUOTE.exec(rest)) {
      stack.push({ kind: 'quote' });
      rest = rest.slice(q[0].length);
    }
    const alert = stack.length > 0 && stack[stack.length - 1].kind === 'quote' ? ALERT.exec(rest) : null;
    if (alert) rest = [markerLead(alert[1] ?? '', undefined).text, rest.slice(alert[0].length)].filter((part) => part !== '').join(' ');
    if (isBlank(rest)) {
      emit('', line);
      continue;
    }

    const open = FENCE_OPEN.exec(rest);
    if (open && !(open[2][0] === '`' && open[3].includes('`'))) {
      fence = { char: open[2][0], length: open[2].length, depth: stack.length };
      emit(rest, line);
      continue;
    }

    const shallow = options.mdx || indentWidth(rest) < 4;
    const docstrings = shallow && stack.every((c) => c.kind === 'indent') ? mkdocstringsEnd(lines, i, rest) : undefined;
    if (docstrings !== undefined) {
      // Nothing of it is on the page: the directive and its options become blank lines.
      for (; i < docstrings; i++) emit('', lines[i].line);
      i--;
      continue;
    }
    if (shallow) {
      const special = unwrapMarker(rest, stack);
      if (special !== undefined) {
        lead = undefined;
        emit(special.text, line);
        // A kept title is a paragraph of its own; a lead ("Warning:") starts the body's first one.
        if (special.joins && special.text !== '') lead = { text: special.text, index: out.length - 1 };
        else if (special.text !== '') emit('', line);
        continue;
      }
      if (RAW_BLOCK.test(rest)) {
        const tag = RAW_BLOCK.exec(rest)?.[1] ?? 'script';
        const end = new RegExp(`</${tag}\\s*>`, 'i');
        if (!end.test(rest)) rawEnd = end;
        emit('', line);
        continue;
      }
      if (stack.length === 0 && (options.mdx ? /^(import|export)\s/.test(rest) : ESM_IMPORT_LINE.test(rest))) {
        // MDX ends an ESM block at the first blank line; in Markdown the import is one line.
        esm = options.mdx;
        emit('', line);
        continue;
      }
      if (options.mdx && /^\s*\{\/\*/.test(rest)) {
        if (!rest.includes('*/}')) closeComment = '*/}';
        emit('', line);
        continue;
      }
    }

    const comment = unclosedCommentStart(rest);
    if (comment >= 0) {
      rest = rest.slice(0, comment);
      closeComment = '-->';
    }
    if (isCommentOnly(rest)) rest = '';

    if ((shallow || htmlBlock) && /^\s*<[A-Za-z/>]/.test(rest)) {
      const startsBlock = lastBlank || htmlBlock;
      const opening = rest;
      const tags = stripLeadingTags(rest, (k) => lines[i + k]?.text);
      if (tags) {
        for (let k = 0; k < tags.extraLines; k++) emit('', lines[i + k].line);
        i += tags.extraLines;
        rest = tags.rest;
        if (!options.mdx && startsBlock) htmlBlock = true;
        if (isBlank(rest)) {
          emit('', lines[i].line, opensWithMedia(opening));
          continue;
        }
        emit(htmlBlock ? rest.trimStart() : rest, lines[i].line);
        continue;
      }
    }
    // Raw HTML blocks run to the next blank line and are never indented code.
    emit(htmlBlock && !options.mdx ? rest.trimStart() : rest, line);
  }
  return out;
}

/**
 * When line `i` (`rest` without its containers' prefixes) is an mkdocstrings directive
 * (`isMkdocstrings`), the index of the first line after it and its options; otherwise undefined.
 */
function mkdocstringsEnd(lines: readonly SourceLine[], i: number, rest: string): number | undefined {
  const m = MKDOCSTRINGS.exec(rest);
  if (!m) return undefined;
  // Measured on the whole line: inside an admonition the options sit deeper than its body.
  const indent = indentWidth(lines[i].text);
  let end = i + 1;
  while (end < lines.length && (isBlank(lines[end].text) || indentWidth(lines[end].text) > indent)) end++;
  // Blank lines after the block are the next paragraph's, not the directive's.
  while (end > i + 1 && isBlank(lines[end - 1].text)) end--;
  const under = lines.slice(i + 1, end).find((l) => !isBlank(l.text));
  return isMkdocstrings(m[2] ?? '', under?.text) ? end : undefined;
}

/**
 * Whether `::: name` is an mkdocstrings directive rather than a colon fence such as `::: tip`:
 * its name is dotted (`pkg.Name`), or the first line under it opens an `options:` block.
 * includes/mkdocstrings.ts decides the same way.
 */
export function isMkdocstrings(name: string, firstLineUnder: string | undefined): boolean {
  return name.includes('.') || /^\s*options:\s*$/.test(firstLineUnder ?? '');
}

/** Strips the prefixes of the open containers; `matched` counts those the line continues. */
function matchContainers(text: string, stack: readonly Container[]): { rest: string; matched: number } {
  let rest = text;
  let matched = 0;
  for (const c of stack) {
    if (c.kind === 'quote') {
      const q = QUOTE.exec(rest);
      if (!q) break;
      rest = rest.slice(q[0].length);
    } else if (isBlank(rest)) {
      rest = '';
    } else if (indentWidth(rest) >= c.width) {
      rest = stripIndent(rest, c.width);
    } else break;
    matched++;
  }
  return { rest, matched };
}

/**
 * Admonition, tab and include markers. Returns the line to emit in place of the marker (its
 * lead or a title worth keeping, or ""), or undefined when `rest` is not a marker.
 */
function unwrapMarker(rest: string, stack: Container[]): MarkerLine | undefined {
  const none = { text: '', joins: false };
  const admonition = MKDOCS_ADMONITION.exec(rest);
  if (admonition) {
    stack.push({ kind: 'indent', width: indentWidth(admonition[1]) + 4 });
    // `!!! note ""` asks for no title bar at all.
    return admonition[3] === '' ? none : markerLead(admonition[2] ?? '', admonition[3]?.trim());
  }
  const tab = CONTENT_TAB.exec(rest);
  if (tab) {
    stack.push({ kind: 'indent', width: indentWidth(tab[1]) + 4 });
    return none;
  }
  const colon = COLON_FENCE.exec(rest);
  if (colon) return markerLead(colon[1] ?? colon[2] ?? '', markerTitle(colon[3] ?? ''));
  const slash = SLASH_BLOCK.exec(rest);
  // A tab's label ("pip", "Python 3.10+") is navigation, not a title worth a paragraph.
  if (slash) return slash[1] === 'tab' ? none : markerLead(slash[1] ?? '', markerTitle(slash[2] ?? ''));
  if (INCLUDE.test(rest)) return none;
  return undefined;
}

/** The title of `:::tip[Title]`, `::: details Title`, `/// note | Title`; option braces dropped. */
function markerTitle(raw: string): string {
  const title = raw
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\{[^{}]*\}/g, '')
    .trim();
  return title.replace(/^["']|["']$/g, '');
}

/** A line holding one HTML comment and nothing else, such as `<!-- prettier-ignore -->`. */
function isCommentOnly(text: string): boolean {
  const t = text.trim();
  return t.startsWith('<!--') && t.indexOf('-->') === t.length - 3;
}

/** Index of a `<!--` with no `-->` after it on the line (outside inline code), or -1. */
function unclosedCommentStart(text: string): number {
  if (!text.includes('<!--')) return -1;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '`') {
      const end = codeSpanEnd(text, i);
      i = end > 0 ? end : i + 1;
      continue;
    }
    if (c === '<' && text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close < 0) return i;
      i = close + 3;
      continue;
    }
    i++;
  }
  return -1;
}
