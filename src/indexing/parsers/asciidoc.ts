/**
 * AsciiDoc (.adoc, .asciidoc): `=` section titles, `[source,lang]` listing blocks and
 * `....` literal blocks as code, `.Title` block titles and admonitions (`NOTE:` paragraphs and
 * `[NOTE]` blocks) as labelled prose, attribute entries, comments, includes and images
 * removed. The document header's author and revision lines are not content. Example,
 * sidebar, quote and open blocks are transparent: their delimiters go, their content stays.
 * Tables become rows of `cell | cell`, definition lists `term: definition`; callout markers
 * (`<1>`) leave the code and their explanations read `(1) text`.
 */
import type { ParsedSnippet, SourceDocument } from '../types';
import { blocksToSnippets, firstTitle, type DocBlock } from './sections';
import { dedentBlock, isBlank, normaliseLanguage, numberLines, squash, titleFromPath, type SourceLine } from './text-utils';

const TITLE = /^(={1,6}|#{1,6})[ \t]+(\S.*?)(?:[ \t]+\1)?[ \t]*$/;
const ATTRIBUTE_ENTRY = /^:!?[\w][\w-]*!?:(?:[ \t]|$)/;
/** `[source,java]`, `[NOTE]`, `[[anchor]]`, `[#id.role]`: a whole line in brackets. */
const BLOCK_ATTRIBUTES = /^\[(.*)\][ \t]*$/;
const BLOCK_TITLE = /^\.([^.\s].*)$/;
const CODE_DELIMITER = /^(-{4,}|\.{4,})[ \t]*$/;
const SKIPPED_DELIMITER = /^(\/{4,}|\+{4,})[ \t]*$/;
const TRANSPARENT_DELIMITER = /^(={4,}|\*{4,}|_{4,}|--)[ \t]*$/;
const BLOCK_MACRO = /^(include|image|toc|video|audio|ifdef|ifndef|ifeval|endif)::\S*\[.*\][ \t]*$/;
const LIST_ITEM = /^\s*(\*+|-|\.+|\d+\.|[a-z]\.)\s+/;
/** `term:: definition` (also `:::`, `::::`, `;;`), the definition possibly on the next lines. */
const DEFINITION = /^(\S.*?)(?:::{1,3}|;;)(?:[ \t]+(.*))?$/;
/** `<1> Explanation`: an entry of the callout list after a listing. */
const CALLOUT_ITEM = /^<(\d+|\.)>[ \t]+/;
const ADMONITIONS = new Set(['NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION']);
const TABLE_DELIMITER = /^\|={3,}[ \t]*$/;

/** Splits one AsciiDoc document into snippets. Never throws. */
export function splitAsciidocIntoSnippets(doc: SourceDocument): ParsedSnippet[] {
  const blocks = asciidocBlocks(numberLines(doc.text));
  return blocksToSnippets(blocks, { path: doc.path, pageTitle: firstTitle(blocks) || titleFromPath(doc.path) });
}

function asciidocBlocks(lines: readonly SourceLine[]): DocBlock[] {
  const blocks: DocBlock[] = [];
  let para: SourceLine[] = [];
  // A `[source,lang]` line applies to the block that follows it.
  let pendingLanguage: string | undefined;
  // `[cols="1,2"]` before a table: how many cells make a row.
  let pendingColumns: number | undefined;
  // Attribute entries (`:product: Acme`, `:source-language: ruby`), applied to what follows.
  const attributes = new Map<string, string>();
  const sub = (s: string) => substituteAttributes(s, attributes);
  // `[NOTE]` over a paragraph or an `====` block: the label goes before its first paragraph.
  let pendingLabel: string | undefined;
  const flush = () => {
    const text = cleanAsciidocInline(sub(joinParagraph(para)));
    if (text !== '') {
      blocks.push({ kind: 'prose', text: pendingLabel ? `${pendingLabel}: ${text}` : text, line: para[0].line });
      pendingLabel = undefined;
    }
    para = [];
  };
  let start = headerEnd(lines);
  for (let i = 0; i < lines.length; i++) {
    if (i === start.skipFrom) {
      i = start.skipTo;
      start = { skipFrom: -1, skipTo: -1 };
      continue;
    }
    const { text, line } = lines[i];
    const t = text.trim();
    const delimiter = CODE_DELIMITER.exec(t) ?? SKIPPED_DELIMITER.exec(t);
    // Delimiters and block attribute lines end a paragraph even without a blank line.
    if (para.length > 0 && (delimiter || BLOCK_ATTRIBUTES.test(t))) flush();
    if (delimiter) {
      let end = i + 1;
      while (end < lines.length && lines[end].text.trim() !== delimiter[1]) end++;
      if (CODE_DELIMITER.test(t))
        blocks.push({ kind: 'code', code: stripCallouts(dedentBlock(lines.slice(i + 1, end).map((l) => l.text))), language: pendingLanguage ?? '', line });
      pendingLanguage = undefined;
      i = end;
      continue;
    }
    if (t === '' || t === '+' || TRANSPARENT_DELIMITER.test(t)) {
      flush();
      continue;
    }
    if (/^\/\/(?!\/)/.test(t)) continue;
    if (para.length > 0) {
      para.push(lines[i]);
      continue;
    }
    if (ATTRIBUTE_ENTRY.test(t)) {
      const entry = /^:(!?)([\w][\w-]*)(!?):[ \t]*(.*)$/.exec(t);
      if (entry && (entry[1] || entry[3])) attributes.delete(entry[2]);
      else if (entry) attributes.set(entry[2], sub(entry[4].trim()));
      continue;
    }
    if (TABLE_DELIMITER.test(t)) {
      let end = i + 1;
      while (end < lines.length && !TABLE_DELIMITER.test(lines[end].text.trim())) end++;
      const rows = tableRows(
        lines.slice(i + 1, end).map((l) => l.text),
        pendingColumns,
      );
      const text = rows.map((r) => r.map((c) => cleanAsciidocInline(sub(c))).join(' | ')).join('\n');
      if (text.trim() !== '') blocks.push({ kind: 'prose', text, line });
      pendingColumns = undefined;
      i = end;
      continue;
    }
    if (BLOCK_MACRO.test(t) || t.startsWith('|===')) continue;
    const title = TITLE.exec(text);
    if (title) {
      const heading = squash(cleanAsciidocInline(sub(title[2])));
      if (heading !== '') blocks.push({ kind: 'heading', level: title[1].length, text: heading, line });
      pendingLanguage = undefined;
      continue;
    }
    const blockAttributes = BLOCK_ATTRIBUTES.exec(t);
    if (blockAttributes) {
      const style = blockAttributes[1].split(',')[0].trim();
      if (ADMONITIONS.has(style)) pendingLabel = style.charAt(0) + style.slice(1).toLowerCase();
      const cols = /(?:^|,)\s*cols\s*=\s*"?([^"\]]*)"?/.exec(blockAttributes[1]);
      if (cols) pendingColumns = columnCount(cols[1]);
      const language = codeLanguage(blockAttributes[1]);
      pendingLanguage = language === '' ? (attributes.get('source-language') ?? '') : (language ?? pendingLanguage);
      continue;
    }
    const blockTitle = BLOCK_TITLE.exec(t);
    if (blockTitle) {
      // ".Configuring the client" names the block below; as prose it introduces the code.
      blocks.push({ kind: 'prose', text: cleanAsciidocInline(sub(blockTitle[1])), line });
      continue;
    }
    if (pendingLanguage !== undefined || /^[ \t]/.test(text)) {
      // `[source]` over an undelimited paragraph, or an indented literal paragraph.
      let end = i;
      while (end < lines.length && !isBlank(lines[end].text)) end++;
      blocks.push({ kind: 'code', code: stripCallouts(dedentBlock(lines.slice(i, end).map((l) => l.text))), language: pendingLanguage ?? '', line });
      pendingLanguage = undefined;
      i = end - 1;
      continue;
    }
    para.push(lines[i]);
  }
  if (para.length > 0) flush();
  return blocks;
}

/**
 * `source,python,linenums` and Asciidoctor's short `[,python]` → "python"; `source`,
 * `listing`, `literal` → "" (the document's `:source-language:` applies); other block
 * styles → undefined.
 */
function codeLanguage(attributes: string): string | undefined {
  const [style = '', language = ''] = attributes.split(',').map((s) => s.trim());
  if (style === '' && language !== '' && !language.includes('=')) return normaliseLanguage(language);
  if (/^(source|listing|literal)$/i.test(style.replace(/^[.#%].*$/, ''))) return normaliseLanguage(language.includes('=') ? '' : language);
  return undefined;
}

/** Built-in character attributes Asciidoctor defines. */
const BUILT_IN: Record<string, string> = {
  empty: '',
  sp: ' ',
  nbsp: ' ',
  zwsp: '',
  wj: '',
  apos: "'",
  quot: '"',
  amp: '&',
  lt: '<',
  gt: '>',
  startsb: '[',
  endsb: ']',
  vbar: '|',
  caret: '^',
  asterisk: '*',
  tilde: '~',
  plus: '+',
  backslash: '\\',
  backtick: '`',
  'two-colons': '::',
  'two-semicolons': ';;',
  cpp: 'C++',
  pp: '++',
};

/** `{name}` references replaced by the document's attribute values (unknown ones stay as written). */
export function substituteAttributes(text: string, attributes: ReadonlyMap<string, string>): string {
  if (!text.includes('{')) return text;
  return text.replace(/\\?\{([\w][\w-]*)\}/g, (ref, name: string) => (ref.startsWith('\\') ? ref.slice(1) : (attributes.get(name) ?? BUILT_IN[name] ?? ref)));
}

/**
 * A paragraph's lines joined for reading: list items, definition-list terms and callout
 * explanations each on their own line (`term: definition`, `(1) text`), other lines joined.
 */
function joinParagraph(para: readonly SourceLine[]): string {
  let out = '';
  let n = 0;
  for (const p of para) {
    let t = p.text.trim().replace(/[ \t]\+$/, '');
    const callout = CALLOUT_ITEM.exec(t);
    const definition = !callout && !/^[ \t]/.test(p.text) ? DEFINITION.exec(t) : null;
    if (callout) t = `(${callout[1] === '.' ? ++n : callout[1]}) ${t.slice(callout[0].length)}`;
    else if (definition && !/^\w+:[^\s:]/.test(t)) t = definition[2] ? `${definition[1]}: ${definition[2]}` : `${definition[1]}:`;
    if (out !== '') out += LIST_ITEM.test(p.text) || callout || definition ? '\n' : ' ';
    out += t;
  }
  return out;
}

/**
 * The end of the document header: the author and revision lines right under the level-0
 * title (attribute entries there are read like any other). Returns the lines to skip.
 */
function headerEnd(lines: readonly SourceLine[]): { skipFrom: number; skipTo: number } {
  let i = 0;
  while (
    i < lines.length &&
    (isBlank(lines[i].text) ||
      /^\/\/(?!\/)/.test(lines[i].text.trim()) ||
      ATTRIBUTE_ENTRY.test(lines[i].text.trim()) ||
      BLOCK_ATTRIBUTES.test(lines[i].text.trim()))
  )
    i++;
  if (i >= lines.length || !/^=[ \t]+\S/.test(lines[i].text)) return { skipFrom: -1, skipTo: -1 };
  let k = i + 1;
  // Author line (`Jane Doe <jane@example.com>; John Roe`), then a revision line (`v1.0, 2024-01-02: remark`).
  while (
    k < lines.length &&
    k <= i + 2 &&
    !isBlank(lines[k].text) &&
    !ATTRIBUTE_ENTRY.test(lines[k].text.trim()) &&
    !/^(\/\/|\[|\.|=|-{2}|include::|ifn?def::)/.test(lines[k].text.trim())
  )
    k++;
  return k > i + 1 ? { skipFrom: i + 1, skipTo: k - 1 } : { skipFrom: -1, skipTo: -1 };
}

/** `<1>` markers at line ends (`// <1>`, `# <2>`, `<!--3-->`) removed from code. */
export function stripCallouts(code: string): string {
  if (!/<(?:\d+|\.)>|<!--\d+-->/.test(code)) return code;
  return code
    .split('\n')
    .map((l) => l.replace(/(?:[ \t]*(?:(?:\/\/|#|--|%)[ \t]*)?(?:<(?:\d+|\.)>|<!--\d+-->))+[ \t]*$/, ''))
    .join('\n');
}

/** `1,2,3` → 3; `3*` → 3; `2*,1` → 3 (what `[cols=...]` says). */
function columnCount(spec: string): number | undefined {
  const n = spec.split(/[,;]/).reduce((sum, c) => sum + (/^\s*(\d+)\*/.exec(c) ? Number(/^\s*(\d+)\*/.exec(c)?.[1]) : 1), 0);
  return /^\s*\d+\s*$/.test(spec) ? Number(spec) : n > 0 ? n : undefined;
}

/**
 * The rows of a `|===` table: cells start at `|` (after an optional spec such as `2+` or
 * `a`), a row has as many cells as `[cols]` says or else as the first line holds.
 */
export function tableRows(body: readonly string[], columns?: number): string[][] {
  const cells: string[] = [];
  let firstLineCells = 0;
  let seenLine = false;
  for (const raw of body) {
    const line = raw.trim();
    if (line === '') continue;
    const parts = line.split(/(?:^|[ \t]+)(?:\d*\*?\d*\+?[<^>]?(?:\.[<^>])?[aehlmdsv]?)\|/);
    if (!line.startsWith('|') && !/^[\d.+*<^>]*[aehlmdsv]?\|/.test(line)) {
      // A line without a cell start continues the last cell.
      if (cells.length > 0) cells[cells.length - 1] += ` ${line}`;
      continue;
    }
    const found = parts.slice(1).map((c) => c.trim());
    if (!seenLine) firstLineCells = found.length;
    seenLine = true;
    cells.push(...found);
  }
  const width = columns ?? Math.max(1, firstLineCells);
  const rows: string[][] = [];
  for (let k = 0; k < cells.length; k += width) rows.push(cells.slice(k, k + width));
  return rows;
}

/** Inline AsciiDoc for reading: macros to their text, emphasis marks removed, `code` kept. */
export function cleanAsciidocInline(text: string): string {
  return (
    text
      .replace(/^(NOTE|TIP|IMPORTANT|WARNING|CAUTION):[ \t]*/, (_m, label: string) => `${label.charAt(0)}${label.slice(1).toLowerCase()}: `)
      .replace(/\b(?:link|xref|mailto):([^\s[]*)\[([^\]]*)\]/g, (_m, target: string, label: string) => label.replace(/\^$/, '').split(',')[0] || target)
      .replace(/\b(https?:\/\/[^\s[<>]+)\[([^\]]*)\]/g, (_m, url: string, label: string) => label.replace(/\^$/, '').split(',')[0] || url)
      // A link whose base URL is an attribute the page does not define (Antora sets them in the playbook).
      .replace(/\{[\w-]+\}[^\s[\]{}]*\[([^\]]+)\]/g, (_m, label: string) => label.replace(/\^$/, '').split(',')[0])
      .replace(/<<([^,<>]+)(?:,\s*([^<>]*))?>>/g, (_m, id: string, label: string | undefined) => label || id)
      .replace(/\b(?:kbd|btn|menu):([^\s[]*)\[([^\]]*)\]/g, (_m, target: string, label: string) => [target, label].filter(Boolean).join(' '))
      .replace(/\bfootnote:[\w-]*\[[^\]]*\]/g, '')
      .replace(/\b(?:image|icon):[^\s[]+\[[^\]]*\]/g, '')
      .replace(/\[\[[\w:.-]+(?:,[^\]]*)?\]\]/g, '')
      .replace(/\banchor:[\w:.-]+\[[^\]]*\]/g, '')
      .replace(/\[(?:[.#][\w.#-]+|role=[\w-]+)\](?=[*_`])/g, '')
      .replace(/`\+([^`]*)\+`/g, '`$1`')
      .replace(/\[[.#%][^\]]*\]#([^#]*)#/g, '$1')
      .replace(/(^|[^\w*])\*{1,2}(?=\S)([^*\n]*?\S)\*{1,2}(?![\w*])/g, '$1$2')
      .replace(/(^|[^\w_])_{1,2}(?=\S)([^_\n]*?\S)_{1,2}(?![\w_])/g, '$1$2')
      .replace(/\{nbsp\}/g, ' ')
      .replace(/[ \t]{2,}/g, ' ')
      .trim()
  );
}
