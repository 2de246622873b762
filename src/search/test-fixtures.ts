/** Snippets shared by the search tests (not a test file itself). */
import { CONTEXT_SOURCE_FIELDS, EVIDENCE_FIELDS, UNANALYSED, type CandidateEvidence, type ScoredCandidate, type SnippetDocument } from './types';
import type { ContextSnippet } from './types';
import { toIndexedSnippet } from './mappings';

export function snippetDocument(overrides: Partial<SnippetDocument> = {}): SnippetDocument {
  return {
    kind: 'code',
    title: 'Setting a cookie',
    breadcrumb: ['Context', 'API', 'ctx.cookies.set()'],
    pageTitle: 'Context',
    description: 'Set cookie `name` to `value` with `options`:',
    content: '',
    language: 'js',
    code: "ctx.cookies.set('name', 'tobi', { signed: true, httpOnly: true });",
    path: 'docs/api/context.md',
    startLine: 120,
    id: 'abc123',
    libraryId: '/koajs/koa',
    version: '3.2.0',
    generation: 4,
    url: 'https://github.com/koajs/koa/blob/e0ba8ef/docs/api/context.md#L120',
    tokens: 60,
    fileHash: 'f00d',
    ...UNANALYSED,
    ...overrides,
  };
}

let counter = 0;

/** A context snippet with a unique id unless one is given. */
export function contextSnippet(overrides: Partial<ContextSnippet> = {}): ContextSnippet {
  counter += 1;
  const doc = snippetDocument();
  return {
    id: `s${counter}`,
    libraryId: doc.libraryId,
    kind: doc.kind,
    title: doc.title,
    description: doc.description,
    content: doc.content,
    language: doc.language,
    code: `${doc.code} // ${counter}`,
    breadcrumb: doc.breadcrumb,
    pageTitle: doc.pageTitle,
    path: doc.path,
    url: doc.url,
    startLine: doc.startLine,
    tokens: doc.tokens,
    ...overrides,
  };
}

/**
 * A context candidate as the legs hand it to re-scoring: the snippet, its analysed fields as
 * the index stores them (mappings.ts computes them from the raw fields) and, when given, its
 * vector (normalised to unit length, as stored).
 */
export function scoredCandidate(overrides: Partial<SnippetDocument>, vector?: number[], score = 1): ScoredCandidate & { evidence: CandidateEvidence } {
  const doc = toIndexedSnippet(snippetDocument({ id: `c${(counter += 1)}`, ...overrides }));
  const text = Object.fromEntries(EVIDENCE_FIELDS.map((f) => [f, doc[f]])) as CandidateEvidence['text'];
  const context = Object.fromEntries(CONTEXT_SOURCE_FIELDS.filter((f) => doc[f] !== undefined).map((f) => [f, doc[f]])) as ContextSnippet;
  return { doc: context, score, evidence: { text, ...(vector ? { vector: unit(vector) } : {}) } };
}

/** `v` scaled to length 1, as a Float32Array. */
export function unit(v: number[]): Float32Array {
  const norm = Math.hypot(...v) || 1;
  return Float32Array.from(v.map((x) => x / norm));
}

/** The fields of a prose section (an info snippet) titled `title` on a page "Guide". */
export function infoSection(title: string, content: string, over: Partial<SnippetDocument> = {}): Partial<SnippetDocument> {
  return { kind: 'info', title, breadcrumb: ['Guide', title], pageTitle: 'Guide', description: '', content, language: '', code: '', ...over };
}

/** Part `k` of the long section "Timeout options" of docs/api/client.md (100 tokens each). */
export function timeoutPart(k: number, startLine: number, over: Partial<SnippetDocument> = {}): Partial<SnippetDocument> {
  return infoSection('Timeout options', `Part ${k}: set the timeout of a request with these options.`, {
    part: k,
    startLine,
    path: 'docs/api/client.md',
    breadcrumb: ['Client', 'Timeout options'],
    tokens: 100,
    ...over,
  });
}

/** A library's term statistics for a question's terms: `df` snippets of `total` hold each. */
export function termStats(df: Record<string, number>, total = 200): { total: number; df: Map<string, number> } {
  return { total, df: new Map(Object.entries(df)) };
}
