/**
 * One scored call of the protocol: `GET /v2/context?libraryId=&query=&type=json` with the
 * default token budget, reduced to what the metrics need (ranked paths, tokens, latency).
 * A 429 is waited out (Retry-After, bounded) and retried, so a low anonymous rate limit
 * slows the run down instead of turning answers into misses.
 */
import { performance } from 'node:perf_hooks';
import type { ReturnedSnippet } from './sections';

export interface ContextCall {
  status: number;
  /** Time of the answered attempt, request sent to body parsed. */
  latencyMs: number;
  /** `snippets[].source.path` in rank order (repeats kept). */
  paths: string[];
  /** Σ `snippets[].tokens`. */
  tokens: number;
  /** What section-level scoring reads of each snippet, in rank order. */
  snippets: ReturnedSnippet[];
  /** Set for a non-200 answer or a transport failure. */
  error?: string;
  /** How many 429s were waited out before this answer. */
  rateLimited: number;
}

export interface ContextClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Longest single wait on a 429 (the server's Retry-After is capped to it). */
  maxRetryWaitMs?: number;
  maxRetries?: number;
  onRateLimited?: (waitMs: number) => void;
}

interface SnippetShape {
  tokens?: unknown;
  title?: unknown;
  breadcrumb?: unknown;
  kind?: unknown;
  part?: unknown;
  content?: unknown;
  source?: { path?: unknown; startLine?: unknown };
}

export function contextUrl(baseUrl: string, libraryId: string, query: string): string {
  const url = new URL('/v2/context', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  url.search = new URLSearchParams({ libraryId, query, type: 'json' }).toString();
  return url.toString();
}

/** Pulls the ranked paths and tokens out of a `type=json` body; throws on another shape. */
export function readContextBody(body: unknown): { paths: string[]; tokens: number; snippets: ReturnedSnippet[] } {
  const list = (body as { snippets?: unknown } | null)?.snippets;
  if (!Array.isArray(list)) throw new Error('the answer has no `snippets` array');
  const snippets = (list as SnippetShape[]).map((s) => ({
    path: typeof s?.source?.path === 'string' ? s.source.path : '',
    title: typeof s?.title === 'string' ? s.title : '',
    breadcrumb: Array.isArray(s?.breadcrumb) ? s.breadcrumb.filter((b): b is string => typeof b === 'string') : [],
    tokens: typeof s?.tokens === 'number' ? s.tokens : 0,
    ...(typeof s?.kind === 'string' ? { kind: s.kind } : {}),
    ...(typeof s?.source?.startLine === 'number' ? { startLine: s.source.startLine } : {}),
    ...(typeof s?.part === 'number' ? { part: s.part } : {}),
    ...(typeof s?.content === 'string' && /\(continued, part \d+ of \d+\)/.test(s.content) ? { continued: true } : {}),
  }));
  return { paths: snippets.map((s) => s.path), tokens: snippets.reduce((n, s) => n + s.tokens, 0), snippets };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function fetchContext(options: ContextClientOptions, libraryId: string, query: string): Promise<ContextCall> {
  const { timeoutMs = 60_000, maxRetryWaitMs = 65_000, maxRetries = 5 } = options;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const url = contextUrl(options.baseUrl, libraryId, query);
  let rateLimited = 0;
  for (;;) {
    const started = performance.now();
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return {
        status: 0,
        latencyMs: performance.now() - started,
        paths: [],
        tokens: 0,
        snippets: [],
        error: `request failed: ${cause ?? (error as Error).message}`,
        rateLimited,
      };
    }
    const latencyMs = performance.now() - started;
    if (res.status === 429 && rateLimited < maxRetries) {
      rateLimited++;
      const retryAfter = Number(res.headers.get('retry-after'));
      const waitMs = Math.min(maxRetryWaitMs, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 + 100 : 5000);
      options.onRateLimited?.(waitMs);
      await sleep(waitMs);
      continue;
    }
    if (res.status !== 200) {
      return { status: res.status, latencyMs, paths: [], tokens: 0, snippets: [], error: describeError(res.status, text), rateLimited };
    }
    try {
      return { status: 200, latencyMs, ...readContextBody(JSON.parse(text)), rateLimited };
    } catch (error) {
      return { status: 200, latencyMs, paths: [], tokens: 0, snippets: [], error: `unreadable answer: ${(error as Error).message}`, rateLimited };
    }
  }
}

/** `404 no_snippets_found: …` from the spec's `{ error, message }` body, or the raw text. */
export function describeError(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') return `${status} ${body.error}${typeof body.message === 'string' ? `: ${body.message}` : ''}`;
  } catch {
    // not JSON: fall through to the raw text
  }
  return `${status} ${text.slice(0, 200).replace(/\s+/g, ' ').trim()}`;
}
