/**
 * Turns parsed snippets into stored snippet documents: sizes bounded, empty ones and
 * (near-)duplicates dropped, token counts of the text a client receives, stable ids, URLs.
 * The analysed `search*` fields are left empty for search/analysis to fill.
 */
import { type ParsedSnippet } from '../types';
import { UNANALYSED, type SnippetDocument } from '../../search/types';
import { sha256 } from '../../util/hash';
import { renderSnippetText } from '../../search/format/txt';
import { boundCode, boundLabel, boundText, SNIPPET_BOUNDS } from './bounds';
import { createDuplicateFilter } from './dedupe';
import { countTokens } from './tokens';

export interface FinishContext {
  libraryId: string;
  version: string;
  /** URL of a file at the indexed commit, anchored at a line. */
  fileUrl: (path: string, line: number) => string;
  /** Content hash per path (the git blob id), for incremental refreshes. */
  fileHashes: Map<string, string>;
}

/**
 * Finishes a build's parsed snippets. Of duplicates (same normalised code, or content for
 * info snippets; or a near copy of a long one) the one with the lowest path and line is kept.
 * Output keeps the input order; `generation` is 0 for the caller to set.
 */
export function finishSnippets(parsed: readonly ParsedSnippet[], ctx: FinishContext): SnippetDocument[] {
  const bounded = parsed.map(bound);
  const isDuplicate = createDuplicateFilter();
  const keep = new Array<boolean>(bounded.length).fill(false);
  for (const i of preferenceOrder(bounded)) {
    const s = bounded[i];
    if (s === undefined) continue;
    // A section's snippet is compared whole (prose and code); an API entry or operation by its code.
    keep[i] = !isDuplicate(s.kind, s.content !== '' ? s.content : s.code);
  }
  const out: SnippetDocument[] = [];
  for (const [i, s] of bounded.entries()) if (s && keep[i]) out.push(toDocument(s, ctx));
  return out;
}

/** The snippet with every field within bounds, or undefined when nothing is left to show. */
function bound(p: ParsedSnippet): ParsedSnippet | undefined {
  const code = p.kind === 'code' ? boundCode(p.code.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd()) : '';
  const content = boundText(p.content.trim(), SNIPPET_BOUNDS.content);
  if (p.kind === 'code' ? code === '' : !/[\p{L}\p{N}]/u.test(content)) return undefined;
  const pageTitle = boundLabel(p.pageTitle);
  return {
    kind: p.kind,
    title: boundLabel(p.title) || pageTitle || fileName(p.path),
    breadcrumb: p.breadcrumb.map((b) => boundLabel(b)).filter((b) => b !== ''),
    pageTitle,
    description: p.kind === 'code' ? boundText(p.description.trim(), SNIPPET_BOUNDS.description) : '',
    content,
    language: p.kind === 'code' ? p.language.trim() : '',
    code,
    path: p.path,
    startLine: p.startLine,
    ...(p.pageKind !== undefined ? { pageKind: p.pageKind } : {}),
    ...(p.pageVersion !== undefined ? { pageVersion: p.pageVersion } : {}),
    ...(p.part !== undefined ? { part: p.part } : {}),
  };
}

/** Indexes sorted by path, then line, then input position: the first of duplicates is kept. */
function preferenceOrder(snippets: readonly (ParsedSnippet | undefined)[]): number[] {
  const order = snippets.map((_, i) => i);
  return order.sort((a, b) => {
    const x = snippets[a];
    const y = snippets[b];
    if (!x || !y) return x ? -1 : y ? 1 : a - b;
    if (x.path !== y.path) return x.path < y.path ? -1 : 1;
    return x.startLine - y.startLine || a - b;
  });
}

function toDocument(s: ParsedSnippet, ctx: FinishContext): SnippetDocument {
  const text = s.content !== '' ? s.content : s.code;
  const doc: SnippetDocument = {
    ...s,
    id: sha256(`${ctx.libraryId}|${ctx.version}|${s.path}|${s.startLine}|${s.kind}|${text}`).slice(0, 24),
    libraryId: ctx.libraryId,
    version: ctx.version,
    generation: 0,
    url: ctx.fileUrl(s.path, s.startLine),
    tokens: 0,
    fileHash: ctx.fileHashes.get(s.path) ?? '',
    ...UNANALYSED,
  };
  doc.tokens = countTokens(renderSnippetText(doc));
  return doc;
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
