/**
 * AsciiDoc (.adoc, .asciidoc): `=` section titles, `[source,lang]` listing blocks and
 * `....` literal blocks as code, `.Title` block titles and admonition paragraphs (NOTE:, TIP:)
 * as prose, attribute entries, comments, includes and images removed. Example, sidebar, quote
 * and open blocks are transparent: their delimiters go, their content stays.
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
  // Attribute entries (`:product: Acme`, `:source-language: ruby`), applied to what follows.
  const attributes = new Map<string, string>();
  const sub = (s: string) => substituteAttributes(s, attributes);
  const flush = () => {
    const text = cleanAsciidocInline(sub(joinParagraph(para)));
    if (text !== '') blocks.push({ kind: 'prose', text, line: para[0].line });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const { text, line } = lines[i];
    const t = text.trim();
    const delimiter = CODE_DELIMITER.exec(t) ?? SKIPPED_DELIMITER.exec(t);
    // Delimiters and block attribute lines end a paragraph even without a blank line.
    if (para.length > 0 && (delimiter || BLOCK_ATTRIBUTES.test(t))) flush();
    if (delimiter) {
      let end = i + 1;
      while (end < lines.length && lines[end].text.trim() !== delimiter[1]) end++;
      if (CODE_DELIMITER.test(t)) blocks.push({ kind: 'code', code: dedentBlock(lines.slice(i + 1, end).map((l) => l.text)), language: pendingLanguage ?? '', line });
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
      blocks.push({ kind: 'code', code: dedentBlock(lines.slice(i, end).map((l) => l.text)), language: pendingLanguage ?? '', line });
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
  empty: '', sp: ' ', nbsp: ' ', zwsp: '', wj: '', apos: "'", quot: '"', amp: '&', lt: '<', gt: '>', startsb: '[', endsb: ']', vbar: '|',
  caret: '^', asterisk: '*', tilde: '~', plus: '+', backslash: '\\', backtick: '`', 'two-colons': '::', 'two-semicolons': ';;', cpp: 'C++', 'pp': '++',
};

/** `{name}` references replaced by the document's attribute values (unknown ones stay as written). */
export function substituteAttributes(text: string, attributes: ReadonlyMap<string, string>): string {
  if (!text.includes('{')) return text;
  return text.replace(/\\?\{([\w][\w-]*)\}/g, (ref, name: string) => (ref.startsWith('\\') ? ref.slice(1) : (attributes.get(name) ?? BUILT_IN[name] ?? ref)));
}

function joinParagraph(para: readonly SourceLine[]): string {
  return para
    .map((p, k) => (k > 0 && LIST_ITEM.test(p.text) ? '\n' : k > 0 ? ' ' : '') + p.text.trim().replace(/[ \t]\+$/, ''))
    .join('');
}

/** Inline AsciiDoc for reading: macros to their text, emphasis marks removed, `code` kept. */
export function cleanAsciidocInline(text: string): string {
  return text
    .replace(/^(NOTE|TIP|IMPORTANT|WARNING|CAUTION):[ \t]*/, (_m, label: string) => `${label.charAt(0)}${label.slice(1).toLowerCase()}: `)
    .replace(/\b(?:link|xref|mailto):([^\s[]*)\[([^\]]*)\]/g, (_m, target: string, label: string) => label.replace(/\^$/, '').split(',')[0] || target)
    .replace(/\b(https?:\/\/[^\s[<>]+)\[([^\]]*)\]/g, (_m, url: string, label: string) => label.replace(/\^$/, '').split(',')[0] || url)
    .replace(/<<([^,<>]+)(?:,\s*([^<>]*))?>>/g, (_m, id: string, label: string | undefined) => label || id)
    .replace(/\b(?:kbd|btn|menu):([^\s[]*)\[([^\]]*)\]/g, (_m, target: string, label: string) => [target, label].filter(Boolean).join(' '))
    .replace(/\bfootnote:[\w-]*\[[^\]]*\]/g, '')
    .replace(/\b(?:image|icon):[^\s[]+\[[^\]]*\]/g, '')
    .replace(/`\+([^`]*)\+`/g, '`$1`')
    .replace(/\[[.#%][^\]]*\]#([^#]*)#/g, '$1')
    .replace(/(^|[^\w*])\*{1,2}(?=\S)([^*\n]*?\S)\*{1,2}(?![\w*])/g, '$1$2')
    .replace(/(^|[^\w_])_{1,2}(?=\S)([^_\n]*?\S)_{1,2}(?![\w_])/g, '$1$2')
    .replace(/\{nbsp\}/g, ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
