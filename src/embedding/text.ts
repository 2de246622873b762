/**
 * The compact text a snippet's vector is computed from: what the snippet is about, not all
 * it says. Headings name the topic in the docs' own words; the description or the first
 * sentences of the prose say what it does; for code the start of the code (its signature)
 * follows. The model reads only its first tokens (the input cap), so the order is the
 * order of importance.
 */
import type { SnippetDocument } from '../search/types';
import { proseOf } from '../search/format/fence';

type EmbeddedFields = Pick<SnippetDocument, 'title' | 'breadcrumb' | 'pageTitle' | 'description' | 'content' | 'code'>;

/**
 * Characters kept of the prose and of the code (a token is ~4 characters of prose, fewer of
 * code; the input cap is 128 tokens, service.ts): a section's snippet is judged by its heading
 * and as much of its text as the model reads.
 */
const PROSE_CHARS = 900;
const CODE_CHARS = 450;

export function embeddingText(doc: EmbeddedFields): string {
  const headings = doc.breadcrumb[0] === doc.pageTitle ? doc.breadcrumb : [doc.pageTitle, ...doc.breadcrumb];
  const path = dedupe([...headings, doc.title].map((h) => h.trim()).filter((h) => h !== ''));
  const parts = [path.join(' > ')];
  const prose = squeeze((doc.content !== '' ? proseOf(doc.content) : '') || doc.description);
  if (prose) parts.push(prose.slice(0, PROSE_CHARS));
  const code = squeeze(doc.code);
  if (code) parts.push(code.slice(0, CODE_CHARS));
  return parts.filter((p) => p !== '').join('\n');
}

/** Whitespace runs to one space; Markdown emphasis and link targets dropped. */
function squeeze(text: string): string {
  return text
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/[*_`]{1,3}/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Drops a heading equal to the one before it (title repeated as the last breadcrumb). */
function dedupe(items: string[]): string[] {
  return items.filter((item, i) => i === 0 || item.toLowerCase() !== items[i - 1].toLowerCase());
}
