/**
 * The Context7 text format of a context answer: each snippet rendered as Markdown in rank
 * order, joined by a line of dashes. `renderSnippetText` is also what a snippet's `tokens`
 * should count, so that the budget of the text answer is exact.
 */
import type { ContextSnippet, RankedSnippet } from '../types';
import { presentedSourceUrl } from '../../util/source-url';
import { fenceFor } from './fence';

export const SNIPPET_SEPARATOR = '\n\n--------------------------------\n\n';

type RenderedFields = Pick<ContextSnippet, 'kind' | 'title' | 'description' | 'content' | 'language' | 'code' | 'breadcrumb' | 'url' | 'path' | 'startLine'>;

/**
 * One snippet as Markdown: a section's snippet (its prose with its code in place, `content`)
 * under its breadcrumb; a snippet with code alone (an API operation, generated code docs) as
 * `### title`, `Source: url`, description and fenced code. A source on this server's disk is
 * shown by its place in the repository.
 */
export function renderSnippetText(doc: RenderedFields): string {
  const url = presentedSourceUrl(doc);
  if (doc.kind === 'code' && doc.content === '') {
    const fence = fenceFor(doc.code);
    const description = doc.description.trim() === '' ? '' : `${doc.description}\n\n`;
    return `### ${doc.title}\n\nSource: ${url}\n\n${description}${fence}${doc.language}\n${doc.code}\n${fence}`;
  }
  const heading = doc.breadcrumb.length > 0 ? doc.breadcrumb.join(' > ') : doc.title;
  return `### ${heading}\n\nSource: ${url}\n\n${doc.content}`;
}

/** The `type=txt` body of `GET /v2/context`: the snippets in rank order. */
export function formatContextText(snippets: readonly RankedSnippet[]): string {
  return snippets.map((s) => renderSnippetText(s.doc)).join(SNIPPET_SEPARATOR);
}
