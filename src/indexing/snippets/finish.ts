/**
 * Turns parsed snippets into stored snippet documents: sizes bounded, empty ones and
 * (near-)duplicates dropped, token counts of the text a client receives, stable ids, URLs.
 */
import type { ParsedSnippet, SnippetDocument } from '../types';
import { sha256 } from '../../util/hash';
import { countTokens } from './tokens';
import { renderSnippetText } from '../../search/format/txt';

export const LIMITS = { code: 8000, description: 800, content: 2000, title: 200 } as const;

export interface FinishContext {
  libraryId: string;
  version: string;
  fileUrl: (path: string, line: number) => string;
  fileHashes: Map<string, string>;
}

export function finishSnippets(parsed: readonly ParsedSnippet[], ctx: FinishContext): SnippetDocument[] {
  const seen = new Set<string>();
  const out: SnippetDocument[] = [];
  for (const p of parsed) {
    const code = p.kind === 'code' ? truncateLines(p.code.replace(/\s+$/, ''), LIMITS.code) : '';
    const content = p.kind === 'info' ? truncateText(p.content.trim(), LIMITS.content) : '';
    if (p.kind === 'code' ? code.trim() === '' : content.length < 20) continue;
    const key = sha256(`${p.kind}\0${normalise(p.kind === 'code' ? code : content)}`);
    if (seen.has(key)) continue;
    seen.add(key);
    const doc: SnippetDocument = {
      kind: p.kind,
      title: truncateText(p.title.trim() || p.pageTitle, LIMITS.title),
      breadcrumb: p.breadcrumb.map((b) => truncateText(b, LIMITS.title)),
      pageTitle: truncateText(p.pageTitle, LIMITS.title),
      description: p.kind === 'code' ? truncateText(p.description.trim(), LIMITS.description) : '',
      content,
      language: p.kind === 'code' ? p.language : '',
      code,
      path: p.path,
      startLine: p.startLine,
      id: sha256(`${ctx.libraryId}|${ctx.version}|${p.path}|${p.startLine}|${p.kind}|${code || content}`).slice(0, 24),
      libraryId: ctx.libraryId,
      version: ctx.version,
      generation: 0,
      url: ctx.fileUrl(p.path, p.startLine),
      tokens: 0,
      fileHash: ctx.fileHashes.get(p.path) ?? '',
      searchTitle: '',
      searchBreadcrumb: '',
      searchBody: '',
      searchCode: '',
      searchPath: '',
      searchIdentifiers: '',
    };
    doc.tokens = countTokens(renderSnippetText(doc));
    out.push(doc);
  }
  return out;
}

/** Whitespace- and case-insensitive form used to recognise duplicates. */
function normalise(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Cuts at a line boundary and says so. */
export function truncateLines(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.lastIndexOf('\n', max - 4);
  return `${s.slice(0, cut > max / 2 ? cut : max - 4)}\n...`;
}

/** Cuts at a sentence or word boundary with an ellipsis. */
export function truncateText(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = s.slice(0, max - 3);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('\n'));
  if (sentence > max * 0.6) return `${head.slice(0, sentence + 1)}...`;
  const space = head.lastIndexOf(' ');
  return `${head.slice(0, space > max * 0.6 ? space : head.length)}...`;
}
