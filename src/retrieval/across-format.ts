/**
 * The two forms of an answer across libraries: text (one provenance line per library that
 * answered, then each snippet as context's text form renders it, under the library and
 * version it comes from) and JSON (the ranked snippets as context's `snippets`, each with
 * `libraryId` and `version`, and every library asked with its provenance). Pure.
 */
import { presentRankedSnippet, type SnippetJson } from '../search/format/json';
import { renderSnippetText, SNIPPET_SEPARATOR } from '../search/format/txt';
import { provenanceLine, type Provenance } from './provenance';
import type { AcrossAnswer } from './search-across';

export interface AcrossJson {
  scope: AcrossAnswer['scope'];
  tokens: number;
  snippets: Array<SnippetJson & { libraryId: string; version: string }>;
  libraries: Array<{ libraryId: string; snippets: number; relevant: boolean; provenance: Provenance }>;
}

export function formatAcrossJson(answer: AcrossAnswer): AcrossJson {
  return {
    scope: answer.scope,
    tokens: answer.tokens,
    snippets: answer.snippets.map((s) => ({ libraryId: s.libraryId, version: s.version, ...presentRankedSnippet(s) })),
    libraries: answer.libraries.map((l) => ({ libraryId: l.libraryId, snippets: l.snippets, relevant: l.relevant, provenance: l.provenance })),
  };
}

export function formatAcrossText(answer: AcrossAnswer): string {
  const lines = answer.libraries.filter((l) => l.snippets > 0).map((l) => provenanceLine(l.provenance));
  const quiet = answer.libraries.filter((l) => l.snippets === 0).map((l) => l.libraryId);
  if (quiet.length > 0) lines.push(`Nothing relevant enough in: ${quiet.join(', ')}.`);
  const body = answer.snippets.map((s) => `Library: ${s.libraryId} ${s.version}\n${renderSnippetText(s.doc)}`).join(SNIPPET_SEPARATOR);
  return `${lines.join('\n')}\n\n${body}`;
}
