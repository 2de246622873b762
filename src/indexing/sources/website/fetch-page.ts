/**
 * Fetching one page for a crawl: conditional request when we have the last crawl's
 * validators, Markdown preferred (`Accept: text/markdown`, a `<link rel=alternate
 * type=text/markdown>`, or the `.md` alternate when the site offers them), and every failure
 * turned into a skip reason the crawl reports.
 */
import crypto from 'node:crypto';
import { WebFetchError, type WebFetcher, type WebResponse } from '../../../net/web-fetch';
import type { PreviousPage, SkipReason } from './types';

export const ACCEPT = 'text/markdown, text/x-markdown;q=0.95, text/html;q=0.9, application/xhtml+xml;q=0.9, text/plain;q=0.5, */*;q=0.1';

export type PageFormat = 'md' | 'html';

export type PageOutcome =
  | { kind: 'page'; response: WebResponse; text: string; format: PageFormat }
  | { kind: 'not_modified'; response: WebResponse }
  | { kind: 'skip'; reason: SkipReason; detail: string; finalUrl?: string };

export interface FetchPageRequest {
  url: string;
  headers: Record<string, string>;
  previous?: PreviousPage;
  signal?: AbortSignal;
  inScope: (url: string) => boolean;
}

/** Fetches `url` and classifies the answer (never throws for a page-level failure). */
export async function fetchPage(fetcher: WebFetcher, req: FetchPageRequest): Promise<PageOutcome> {
  const headers: Record<string, string> = { ...req.headers, accept: ACCEPT };
  if (req.previous?.etag) headers['if-none-match'] = req.previous.etag;
  if (req.previous?.lastModified) headers['if-modified-since'] = req.previous.lastModified;
  let response: WebResponse;
  try {
    response = await fetcher.fetch(req.url, { headers, signal: req.signal, redirectFilter: req.inScope });
  } catch (error) {
    if (req.signal?.aborted) throw req.signal.reason;
    return failureToSkip(error);
  }
  if (response.status === 304) return { kind: 'not_modified', response };
  if (response.status < 200 || response.status >= 300) {
    return { kind: 'skip', reason: 'status', detail: `HTTP ${response.status}`, finalUrl: response.url };
  }
  const format = formatOf(response);
  if (!format) return { kind: 'skip', reason: 'not_html', detail: response.headers['content-type'] ?? 'no content type', finalUrl: response.url };
  return { kind: 'page', response, text: decodeBody(response), format };
}

/** Fetches a Markdown alternate; undefined unless it really is Markdown (a soft-404 HTML page is not). */
export async function fetchMarkdown(fetcher: WebFetcher, url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<string | undefined> {
  try {
    const res = await fetcher.fetch(url, { headers: { ...headers, accept: 'text/markdown, text/plain;q=0.9' }, signal });
    if (res.status !== 200 || formatOf(res) !== 'md') return undefined;
    return decodeBody(res);
  } catch {
    if (signal?.aborted) throw signal.reason;
    return undefined;
  }
}

/** `md` for Markdown (declared, or text/plain named .md/.txt), `html` for HTML, undefined otherwise. */
export function formatOf(res: WebResponse): PageFormat | undefined {
  const type = (res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'md';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  const path = new URL(res.url).pathname;
  if ((type === 'text/plain' || type === 'application/octet-stream' || type === '') && /\.(md|markdown|txt)$/i.test(path)) return 'md';
  if (type === '' && sniffHtml(res.body)) return 'html';
  return undefined;
}

function sniffHtml(body: Buffer): boolean {
  const head = body.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html');
}

/** The body as text in the declared charset (UTF-8 when none or unknown). */
export function decodeBody(res: WebResponse): string {
  const charset = /charset=([^;]+)/i
    .exec(res.headers['content-type'] ?? '')?.[1]
    ?.trim()
    .replace(/^"|"$/g, '');
  try {
    return new TextDecoder(charset || 'utf-8').decode(res.body);
  } catch {
    return new TextDecoder('utf-8').decode(res.body);
  }
}

export function contentHash(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

function failureToSkip(error: unknown): PageOutcome {
  if (!(error instanceof WebFetchError)) return { kind: 'skip', reason: 'error', detail: (error as Error).message ?? String(error) };
  const reasons: Record<WebFetchError['reason'], SkipReason> = {
    blocked_address: 'blocked_address',
    scheme: 'redirect_off_scope',
    too_large: 'too_large',
    timeout: 'timeout',
    redirect_limit: 'error',
    redirect_refused: 'redirect_off_scope',
    network: 'error',
  };
  return { kind: 'skip', reason: reasons[error.reason], detail: error.message };
}
