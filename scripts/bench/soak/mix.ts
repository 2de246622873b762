/**
 * The soak's calls: each one a request, what it expects, and (for some) a check of the
 * body. Built by pure functions from a base URL, a question pool and a random source, so
 * the mix is the same code whatever drives it.
 */
import type { RequestSpec } from '../harness/load';
import type { Expectation } from './classify';

export interface Question {
  /** The id the context call takes (`/owner/repo` or `/owner/repo/<version>`). */
  libraryId: string;
  query: string;
}

/** The bench's request, with DELETE too (for the admin API's key deletion). */
export interface SoakRequestSpec extends Omit<RequestSpec, 'method'> {
  method: 'GET' | 'POST' | 'DELETE';
}

/** The spec as the bench's sendRequest takes it: it passes the method through, its type names only GET and POST. */
export const benchSpec = (spec: SoakRequestSpec): RequestSpec => spec as RequestSpec;

export interface Op {
  kind: string;
  spec: SoakRequestSpec;
  expect: Expectation;
  /** Why an ok answer's body is still wrong, or undefined. */
  check?: (body: string) => string | undefined;
}

export type Random = () => number;

/** An item picked with probability proportional to its weight. */
export function pickWeighted<T>(items: ReadonlyArray<readonly [T, number]>, random: Random): T {
  const total = items.reduce((n, [, w]) => n + w, 0);
  let r = random() * total;
  for (const [item, w] of items) {
    r -= w;
    if (r < 0) return item;
  }
  return items[items.length - 1][0];
}

export const pick = <T>(items: readonly T[], random: Random): T => items[Math.floor(random() * items.length) % items.length];

const OK: Expectation = { ok: [200] };
const bearer = (key: string | undefined): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});
const json = (key?: string): Record<string, string> => ({ 'content-type': 'application/json', accept: 'application/json', ...bearer(key) });
const url = (base: string, p: string, query: Record<string, string> = {}) => {
  const u = new URL(p, base);
  u.search = new URLSearchParams(query).toString();
  return u;
};

/** The repository part of an id: what a user types to find `/owner/repo`. */
export const searchNameOf = (libraryId: string): string => libraryId.split('/').filter(Boolean)[1] ?? libraryId;

export function contextOp(base: string, q: Question, type: 'txt' | 'json', key: string | undefined): Op {
  return {
    kind: `context ${type} ${key ? 'key' : 'anon'}`,
    spec: {
      method: 'GET',
      url: url(base, '/v2/context', { libraryId: q.libraryId, query: q.query, ...(type === 'json' ? { type } : {}) }),
      headers: { accept: type === 'json' ? 'application/json' : 'text/plain', ...bearer(key) },
    },
    expect: OK,
  };
}

export function searchOp(base: string, q: Question, key: string | undefined): Op {
  return {
    kind: `libs/search ${key ? 'key' : 'anon'}`,
    spec: {
      method: 'GET',
      url: url(base, '/v2/libs/search', { libraryName: searchNameOf(q.libraryId), query: q.query }),
      headers: { accept: 'application/json', ...bearer(key) },
    },
    expect: OK,
  };
}

/** The JSON-RPC error or tool error of an MCP answer, if any. */
export function mcpProblem(body: string): string | undefined {
  let parsed: { error?: { message?: string }; result?: { isError?: boolean; content?: Array<{ text?: string }> } };
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'the answer is not JSON';
  }
  if (parsed.error) return `JSON-RPC error: ${parsed.error.message ?? 'unknown'}`;
  if (parsed.result?.isError) return `tool error: ${(parsed.result.content?.[0]?.text ?? '').slice(0, 120)}`;
  return undefined;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function mcp(base: string, kind: string, message: unknown, key: string | undefined): Op {
  return {
    kind,
    spec: { method: 'POST', url: url(base, '/mcp'), headers: { ...MCP_HEADERS, ...bearer(key) }, body: JSON.stringify(message) },
    expect: OK,
    check: mcpProblem,
  };
}

export function mcpOp(
  base: string,
  q: Question,
  which: 'initialize' | 'tools/list' | 'resolve-library-id' | 'query-docs',
  key: string | undefined,
  id: number,
): Op {
  const kind = `mcp ${which}`;
  switch (which) {
    case 'initialize':
      return mcp(
        base,
        kind,
        {
          jsonrpc: '2.0',
          id,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'shelfmark-soak', version: '1' } },
        },
        key,
      );
    case 'tools/list':
      return mcp(base, kind, { jsonrpc: '2.0', id, method: 'tools/list' }, key);
    case 'resolve-library-id':
      return mcp(
        base,
        kind,
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'resolve-library-id', arguments: { libraryName: searchNameOf(q.libraryId), query: q.query } },
        },
        key,
      );
    case 'query-docs':
      return mcp(
        base,
        kind,
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'query-docs', arguments: { libraryId: q.libraryId, query: q.query, tokens: 3000 } } },
        key,
      );
  }
}

/** A multipart/form-data body with text fields and one file (OpenAPI documents are text). */
export function multipartBody(
  fields: Record<string, string>,
  file: { field: string; name: string; type: string; text: string },
  boundary: string,
): { body: string; contentType: string } {
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.text}\r\n`,
  );
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

export function uploadOp(base: string, doc: { fileName: string; text: string }, key: string, boundary: string): Op {
  const type = doc.fileName.endsWith('.json') ? 'application/json' : 'application/yaml';
  // public=true: an admin's upload is published to every caller (servers that predate team-private uploads ignore the field).
  const { body, contentType } = multipartBody({ force: 'true', public: 'true' }, { field: 'openapiFile', name: doc.fileName, type, text: doc.text }, boundary);
  return {
    kind: 'add openapi-upload',
    spec: {
      method: 'POST',
      url: url(base, '/v2/add/openapi-upload'),
      headers: { 'content-type': contentType, accept: 'application/json', ...bearer(key) },
      body,
    },
    expect: OK,
  };
}

/** An add still running after ADD_WAIT_SECONDS answers 504 `timeout`; its job carries on. */
const JOB_CALL: Expectation = { ok: [200], expected: [504] };

export function addOp(base: string, host: 'github' | 'git', docsRepoUrl: string, key: string): Op {
  return {
    kind: `add repo/${host}`,
    spec: { method: 'POST', url: url(base, `/v2/add/repo/${host}`), headers: json(key), body: JSON.stringify({ docsRepoUrl }) },
    expect: JOB_CALL,
  };
}

export function refreshOp(base: string, libraryName: string, key: string): Op {
  return {
    kind: 'refresh',
    spec: { method: 'POST', url: url(base, '/v2/refresh'), headers: json(key), body: JSON.stringify({ libraryName }) },
    expect: JOB_CALL,
  };
}

export function adminOps(base: string, key: string, libraryId: string): Op[] {
  const get = (kind: string, p: string, query: Record<string, string> = {}): Op => ({
    kind,
    spec: { method: 'GET', url: url(base, p, query), headers: json(key) },
    expect: OK,
  });
  return [
    get('admin usage', '/v2/admin/usage', { days: '1' }),
    get('libs/metrics', '/v2/libs/metrics', { libraryId, days: '1' }),
    get('jobs', '/v2/jobs', { limit: '50' }),
    get('libraries', '/v2/libraries'),
  ];
}

/** Inputs the API must refuse with a 4xx (or, for MCP, a tool error it answers with 200). */
export function badInputOps(base: string, key: string | undefined, q: Question, n: number): Op[] {
  const bad = (kind: string, spec: SoakRequestSpec, statuses: number[]): Op => ({ kind: `bad ${kind}`, spec, expect: { ok: [], expected: statuses } });
  // Refusals that need a valid key to get past authentication to the check they exercise.
  const withKey = (anyKey: string): Op[] => [
    bad('malformed JSON', { method: 'POST', url: url(base, '/v2/refresh'), headers: json(anyKey), body: '{"libraryName": ' }, [400]),
    bad('wrong type', { method: 'POST', url: url(base, '/v2/refresh'), headers: json(anyKey), body: JSON.stringify({ libraryName: 42 }) }, [400]),
    bad(
      'url not allowed',
      { method: 'POST', url: url(base, '/v2/add/repo/git'), headers: json(anyKey), body: JSON.stringify({ docsRepoUrl: `http://198.51.100.7/soak/${n}.git` }) },
      [400],
    ),
    bad(
      'unknown host',
      { method: 'POST', url: url(base, '/v2/add/repo/sourceforge'), headers: json(anyKey), body: JSON.stringify({ docsRepoUrl: 'https://example.org/a/b' }) },
      [400],
    ),
    bad('unknown job', { method: 'GET', url: url(base, `/v2/jobs/job_soak_missing_${n}`), headers: json(anyKey) }, [404]),
    bad(
      'oversize body',
      { method: 'POST', url: url(base, '/v2/refresh'), headers: json(anyKey), body: JSON.stringify({ libraryName: 'x'.repeat(1_100_000) }) },
      [400, 413],
    ),
    bad(
      'not OpenAPI',
      {
        method: 'POST',
        url: url(base, '/v2/add/openapi-upload'),
        headers: { ...bearer(anyKey), ...multipartHeaders(n) },
        body: multipartBody({}, { field: 'openapiFile', name: 'notes.json', type: 'application/json', text: '{"hello": "world"}' }, `soakbad${n}`).body,
      },
      [400],
    ),
  ];
  return [
    ...(key ? withKey(key) : []),
    bad('unknown library', { method: 'GET', url: url(base, '/v2/context', { libraryId: `/soak-missing/nothing-${n}`, query: q.query }) }, [404]),
    bad(
      'unknown version',
      { method: 'GET', url: url(base, '/v2/context', { libraryId: `${q.libraryId.split('/').slice(0, 3).join('/')}/v0.0.${n}`, query: q.query }) },
      [404],
    ),
    bad(
      'bad token',
      {
        method: 'GET',
        url: url(base, '/v2/context', { libraryId: q.libraryId, query: q.query }),
        headers: { authorization: `Bearer smk_${'0'.repeat(43)}${n % 10}` },
      },
      [401],
    ),
    bad(
      'malformed authorization',
      { method: 'GET', url: url(base, '/v2/libs/search', { libraryName: 'koa' }), headers: { authorization: 'Basic c29hazpzb2Fr' } },
      [401],
    ),
    bad(
      'anonymous add',
      { method: 'POST', url: url(base, '/v2/add/repo/github'), headers: json(), body: JSON.stringify({ docsRepoUrl: 'https://github.com/soak/nothing' }) },
      [401],
    ),
    bad('tokens out of range', { method: 'GET', url: url(base, '/v2/context', { libraryId: q.libraryId, query: q.query, tokens: 'lots' }) }, [400]),
    bad('missing query', { method: 'GET', url: url(base, '/v2/context', { libraryId: q.libraryId }) }, [400]),
    bad('unknown type', { method: 'GET', url: url(base, '/v2/context', { libraryId: q.libraryId, query: q.query, type: 'xml' }) }, [400]),
    bad('mcp malformed JSON', { method: 'POST', url: url(base, '/mcp'), headers: MCP_HEADERS, body: '{"jsonrpc": "2.0", "method": ' }, [400]),
    {
      kind: 'bad mcp unknown library',
      spec: {
        method: 'POST',
        url: url(base, '/mcp'),
        headers: MCP_HEADERS,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: n,
          method: 'tools/call',
          params: { name: 'query-docs', arguments: { libraryId: `/soak-missing/nothing-${n}`, query: q.query } },
        }),
      },
      expect: OK,
      check: (body) => (mcpProblem(body)?.startsWith('tool error') ? undefined : 'a query of an unknown library did not answer with a tool error'),
    },
  ];
}

function multipartHeaders(n: number): Record<string, string> {
  return { 'content-type': `multipart/form-data; boundary=soakbad${n}`, accept: 'application/json' };
}
