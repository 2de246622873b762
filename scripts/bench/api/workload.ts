/**
 * The requests the benchmark cycles through, all from the eval questions: the server's
 * `/v2/context` and `/v2/libs/search`, and the floor — the same context candidate query
 * sent straight to Elasticsearch, built exactly as src/retrieval/context.ts builds it.
 */
import type { Ports } from '../../../src/ports';
import { resolveVersion } from '../../../src/store/libraries';
import { buildContextQuery } from '../../../src/search/queries/context';
import { candidatesFor } from '../../../src/retrieval/context';
import { DEFAULT_TOKENS } from '../../../src/search/budget';
import { libraryIdOf, type EvalEntry } from '../../eval/dataset';
import type { RequestSpec } from '../harness/load';

/** The same number of candidates the server asks Elasticsearch for, so the floor measures the same query. */
export const CONTEXT_CANDIDATES = candidatesFor(DEFAULT_TOKENS);

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Throws unless `url` points at this machine: the benchmark never loads another host. */
export function assertLoopback(url: string, what: string): URL {
  const u = new URL(url);
  if (!LOOPBACK.has(u.hostname)) throw new Error(`${what} ${u.origin} is not on 127.0.0.1: the benchmark only sends load to this machine.`);
  return u;
}

function withAuth(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/**
 * `/v2/context` for each question: without `type` (the txt default, what Context7 clients
 * and our MCP tool ask for) unless `type` is given.
 */
export function contextRequests(baseUrl: string, entries: readonly EvalEntry[], apiKey?: string, type?: 'txt' | 'json'): RequestSpec[] {
  return entries.map((e) => {
    const url = new URL('/v2/context', baseUrl);
    url.search = new URLSearchParams({ libraryId: libraryIdOf(e), query: e.query, ...(type ? { type } : {}) }).toString();
    return { method: 'GET', url, headers: { accept: type === 'json' ? 'application/json' : 'text/plain, application/json', ...withAuth(apiKey) } };
  });
}

/** The name a user would type for `/owner/repo`: the repository part. */
export function libraryNameOf(libraryId: string): string {
  return libraryId.split('/').filter(Boolean)[1] ?? libraryId;
}

export function searchRequests(baseUrl: string, entries: readonly EvalEntry[], apiKey?: string): RequestSpec[] {
  return entries.map((e) => {
    const url = new URL('/v2/libs/search', baseUrl);
    url.search = new URLSearchParams({ libraryName: libraryNameOf(e.library), query: e.query }).toString();
    return { method: 'GET', url, headers: { accept: 'application/json', ...withAuth(apiKey) } };
  });
}

export interface FloorQueries {
  requests: RequestSpec[];
  /** Questions left out, with why (library or version not indexed). */
  skipped: string[];
}

/**
 * The Elasticsearch request of each question: buildContextQuery plus the current
 * generation of the resolved version, read from MongoDB like the server does.
 */
export async function elasticsearchFloorRequests(services: Ports, entries: readonly EvalEntry[]): Promise<FloorQueries> {
  const url = new URL(`/${services.snippets.alias}/_search`, services.config.elasticsearchUrl);
  // The same response filtering as SnippetStore.searchHits.
  url.searchParams.set('filter_path', 'hits.hits._source,hits.hits._score');
  const requests: RequestSpec[] = [];
  const skipped: string[] = [];
  for (const e of entries) {
    const lib = await services.libraries.get(e.library, { fresh: true });
    let version;
    try {
      version = lib ? resolveVersion(lib, e.version) : undefined;
    } catch (error) {
      skipped.push(`${libraryIdOf(e)}: ${(error as Error).message}`);
      continue;
    }
    if (!lib || !version) {
      skipped.push(`${libraryIdOf(e)}: not indexed`);
      continue;
    }
    const body = buildContextQuery({
      libraryId: lib._id,
      version: version.version,
      generation: version.generation,
      query: e.query.trim(),
      size: CONTEXT_CANDIDATES,
    });
    requests.push({ method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
  }
  return { requests, skipped };
}

/** Dataset libraries with no servable latest version (what has to be loaded first). */
export async function missingLibraries(services: Ports, entries: readonly EvalEntry[]): Promise<string[]> {
  const missing: string[] = [];
  for (const id of new Set(entries.map((e) => e.library))) {
    const lib = await services.libraries.get(id, { fresh: true });
    if (!lib || !lib.versions.some((v) => v.version === 'latest' && v.generation > 0)) missing.push(id);
  }
  return missing;
}
