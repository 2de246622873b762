/**
 * Recognisers of snippets that show the docs' source rather than what readers see:
 * include directives left as written, non-English prose, leftover markup in prose, and
 * duplicated content. Used by the quality score and by scripts/eval/fidelity-report.ts.
 */
import { judgeLanguage } from '../discover/language';
import { proseOf } from '../../search/format/fence';

/** Include directives of every convention we resolve (so one left over is a placeholder). */
const PLACEHOLDER =
  /\{\{#(?:include|rustdoc_include|playground)\b[^}]*\}\}|^\s*-{1,}8<-{1,}(?:\s+["'][^"'\n]+["'])?\s*$|^\s*\.\.\s+(?:literalinclude|include)::|^\s*include::[^[\n]+\[[^\]\n]*\]\s*$|!!?raw-loader!|\{!\s*[^!\n]+!\}/m;

/** Whether the snippet's code or text still holds an include directive. */
export function hasPlaceholder(s: { code: string; content: string; description: string }): boolean {
  return PLACEHOLDER.test(s.code) || PLACEHOLDER.test(s.content) || PLACEHOLDER.test(s.description);
}

/**
 * Markup that should have been rendered away from prose: JSX whitespace and expressions,
 * reST roles and directives, AsciiDoc attribute references/entries, blocks, macros and
 * roles, HTML comments, mdBook/Hugo shortcodes, Liquid tags.
 */
const MARKUP: RegExp[] = [
  /\{\s*['"]\s*['"]\s*\}/, // {' '}
  /(?:^|\s):[a-z]+(?::[a-z]+)?:`[^`]+`/m, // :ref:`x`, :py:func:`y`
  /^\s*\.\.\s+[\w:-]+::/m, // .. directive::
  /^:[\w-]+:(?:\s|$)/m, // :attribute: entry
  /^\[(?:source|listing|NOTE|TIP|WARNING|IMPORTANT|CAUTION|\.[\w-]+|#[\w-]+|,\s*\w+)[^\]\n]*\]\s*$/m, // [source,java] [.role] [,ruby]
  /^(?:ifdef|ifndef|ifeval|endif)::/m,
  /\b(?:xref|link|image|kbd|btn|menu|footnote|pass):[^\s[\]]*\[[^\]\n]*\]/, // AsciiDoc macros
  /\[\.[\w-]+\]#[^#\n]+#/, // [.role]#text#
  /<!--|-->/,
  /\{\{[<%]|[>%]\}\}|\{%[\s\S]*?%\}/, // Hugo shortcodes, Liquid
  /^\s*(?:import|export)\s.+from\s+['"]/m, // MDX imports in prose
  // JSX components (`<Tabs groupId="x">`, `</TabItem>`), not generics (`Store<S>`, `Map<K, V>`).
  /(?:^|[\s(])<\/?[A-Z][a-z]\w*(?:\.\w+)*(?:\s+[\w:-]+(?:=(?:"[^"]*"|'[^']*'|\{[^}]*\}))?)*\s*\/?>/m,
];
/** AsciiDoc `{attribute}` references left unresolved (elsewhere `{id}` is often a URL template). */
const ADOC_ATTRIBUTE = /\{[a-z][\w-]*\}/;

/** Inline code not written as a role's target (`:ref:` or MyST `{ref}` before it): quoted syntax, not markup. */
const INLINE_CODE = /(^|[^:}`])`[^`\n]+`/g;

/**
 * Whether the snippet's prose (title, description, content without its fenced examples) still
 * holds markup. Inline code is not judged: a template engine's docs quote `{% block %}`.
 */
export function hasLeftoverMarkup(s: { title: string; description: string; content: string; path?: string }): boolean {
  const prose = `${s.title}\n${s.description}\n${proseOf(s.content)}`.replace(INLINE_CODE, '$1 ');
  if (/\.(adoc|asciidoc|asc)$/i.test(s.path ?? '') && ADOC_ATTRIBUTE.test(prose)) return true;
  return MARKUP.some((re) => re.test(prose));
}

/** Whether the snippet's prose is not English (code, its fenced examples included, is not judged). */
export function isNonEnglish(s: { title: string; description: string; content: string }): boolean {
  return !judgeLanguage(`${s.title}\n${s.description}\n${proseOf(s.content)}`).english;
}

/**
 * The text a duplicate check compares, whitespace folded: a section's whole text (its prose with
 * its examples; one example shared by two pages does not make them copies), the code of a
 * snippet of code alone (an operation, code docs).
 */
export function duplicateKey(s: { kind: string; code: string; content: string }): string {
  return (s.content !== '' ? s.content : s.code).replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Indexes (in order) of snippets whose content already appeared earlier in the list. */
export function duplicateIndexes(snippets: readonly { kind: string; code: string; content: string }[]): Set<number> {
  const seen = new Set<string>();
  const dup = new Set<number>();
  snippets.forEach((s, i) => {
    const key = duplicateKey(s);
    if (key.length < 20) return;
    if (seen.has(key)) dup.add(i);
    else seen.add(key);
  });
  return dup;
}

/** Lower case, every run of other characters than letters and digits one space. */
function folded(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Whether a section's snippet starts on another line than its heading's in the file as written
 * (`lines`, the page's text at the indexed commit): its heading is found in the page, but not
 * on its start line or the line before or after it (a reST overline, a setext underline). A
 * snippet whose heading the page does not hold (it came from an included file, or a front
 * matter title), one starting at a directive (included or generated text stands there) and
 * later parts of long sections are not judged.
 */
export function misplacedStart(s: { title: string; breadcrumb: readonly string[]; startLine: number; part?: number }, lines: readonly string[]): boolean {
  if ((s.part ?? 0) > 0 || s.breadcrumb.length < 2) return false;
  const title = folded(s.title);
  if (title === '') return false;
  const holds = (line: string | undefined) => line !== undefined && ` ${folded(line)} `.includes(` ${title} `);
  if (!lines.some(holds)) return false;
  const at = lines[s.startLine - 1] ?? '';
  // A section brought in by an include or generated by a directive (autodoc) starts at it.
  if (DIRECTIVE_LINE.test(at) || PLACEHOLDER.test(at)) return false;
  return ![s.startLine - 2, s.startLine - 1, s.startLine].some((k) => holds(lines[k]));
}

/** A reST or MyST directive, a mkdocstrings `::: name` or a MyST colon fence: the line included or generated text stands at. */
const DIRECTIVE_LINE = /^\s*(?:\.\.\s+[\w:-]+::|:::|```\{[\w-]+\})/;
