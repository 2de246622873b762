/**
 * The one Elasticsearch client (@elastic/elasticsearch 8.19, which talks to 8.x and 9.x
 * servers). Only src/search imports it. Requests are bounded in time so a down cluster
 * fails fast; the client reconnects by itself.
 */
import { Client, Serializer, errors } from '@elastic/elasticsearch';
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { StoreUnavailableError } from '../errors';

export type EsClient = Client;

/**
 * Parses responses with plain JSON.parse instead of secure-json-parse, which scans every
 * response for `__proto__` keys and cost 3% of the server's CPU under load. Our responses
 * hold only our own documents under a strict mapping (no such keys), and JSON.parse makes a
 * `__proto__` key an own property, never a prototype.
 */
class PlainJsonSerializer extends Serializer {
  override deserialize<T = unknown>(json: string): T {
    try {
      return JSON.parse(json) as T;
    } catch (error) {
      throw new errors.DeserializationError((error as Error).message, json);
    }
  }
}

/**
 * A client of one node or of several (a cluster's nodes: the client sends each request to one
 * of them and, when a node does not answer, marks it dead for a while and retries on another).
 */
export function createEsClient(nodes: string | readonly string[], timeoutMs: number): Client {
  const list = typeof nodes === 'string' ? [nodes] : [...nodes];
  return new Client({
    nodes: list,
    requestTimeout: timeoutMs,
    maxRetries: list.length > 1 ? list.length : 1,
    compression: false,
    Serializer: PlainJsonSerializer,
  });
}

/**
 * The client of the snippet store's indexing side (bulk writes, refreshes, scans, merges).
 * The transport gives its undici pool the client-wide timeout as its headers and body
 * timeout, and a per-request `requestTimeout` can only shorten that: with the API client's
 * short store timeout, a bulk write or merge that took longer failed however long it asked
 * to wait (a 4,000-snippet import on a busy node timed out after 5 s). This client's ceiling
 * is the longest wait (a merge); each request names its own shorter one.
 */
export function createIndexingEsClient(nodes: string | readonly string[]): Client {
  return createEsClient(nodes, 15 * 60_000);
}

export interface NodeInfo {
  version: string;
  major: number;
}

/**
 * Checks that the node offers what Shelfmark needs and returns its version. Uses
 * `_nodes/_local` because the integ-test distribution has no `GET /` info action.
 */
export async function checkElasticsearch(client: Client): Promise<NodeInfo> {
  const nodes = await client.nodes.info({ node_id: '_local', metric: ['settings'] });
  const first = Object.values(nodes.nodes)[0];
  const version = first?.version ?? '0.0.0';
  const major = Number(version.split('.')[0]);
  if (!(major >= 8)) throw new Error(`Elasticsearch ${version} is not supported: Shelfmark needs 8.x or 9.x.`);
  // Text is analysed in Node and indexed with the built-in `whitespace` analyzer, and
  // shingles come from the standard tokenizer + shingle filter: the only analysis the
  // server-core distribution has (no `whitespace` *tokenizer* for custom analyzers).
  const analyzed = await client.indices.analyze({ analyzer: 'whitespace', text: 'shelfmark ctx.check' });
  const tokens = (analyzed.tokens ?? []).map((t) => t.token);
  if (tokens.join(' ') !== 'shelfmark ctx.check') throw new Error('Elasticsearch lacks the whitespace analyzer.');
  const shingled = await client.indices.analyze({ tokenizer: 'standard', filter: ['lowercase', 'shingle'], text: 'a b' });
  if (!(shingled.tokens ?? []).some((t) => t.token === 'a b')) throw new Error('Elasticsearch lacks the shingle token filter.');
  return { version, major };
}

/** One search hit as the hot path returns it. */
export interface HotHit<T> {
  _id?: string;
  _source?: T;
  _score?: number | null;
  /** Present when the request asked for `seq_no_primary_term`. */
  _seq_no?: number;
  _primary_term?: number;
  /** Doc-value fields the request asked for (`docvalue_fields`). */
  fields?: Record<string, unknown[]>;
}

/**
 * The two searches every context and catalogue request makes, sent over a keep-alive undici
 * pool with a ready JSON body and read with JSON.parse: the client's transport (request
 * building, diagnostics, product check, compatibility headers) cost ~0.2 ms per request on
 * the critical path, measured at one client. Failures are the client's error classes, so
 * `isEsUnavailable` maps a down cluster to 503 exactly as for every other call.
 */
export class HotSearch {
  private readonly nodes: Array<{ pool: Pool; basePath: string; headers: Record<string, string>; deadUntil: number }>;
  private next = 0;

  constructor(
    urls: string | readonly string[],
    timeoutMs: number,
    /** Whether the cluster is known to be down (the store monitor's gate). */
    private readonly isDown?: () => boolean,
  ) {
    this.nodes = (typeof urls === 'string' ? [urls] : [...urls]).map((url) => {
      const u = new URL(url);
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (u.username || u.password) {
        headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`;
      }
      const pool = new Pool(u.origin, { connections: 64, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connectTimeout: Math.min(timeoutMs, 10_000) });
      return { pool, basePath: u.pathname.replace(/\/+$/, ''), headers, deadUntil: 0 };
    });
  }

  /**
   * `POST /<index>/_search` keeping only each hit's `_id`, `_source`, `_score` (and the
   * sequence number, primary term and doc-value fields when the body asks for them). Dispatched with
   * plain handlers that collect the body's chunks: undici's stream-based `request` API cost
   * 30–50 µs more CPU per 40 kB answer (a minimal proxy under load at 8 clients).
   * With several nodes, requests go round the live ones; a node that refuses or drops the
   * connection before answering is left alone for 5 s and the request goes to the next one.
   */
  search<T>(index: string, body: object): Promise<Array<HotHit<T>>> {
    return this.post<{ hits?: { hits?: Array<HotHit<T>> } }>(
      index,
      'hits.hits._id,hits.hits._source,hits.hits._score,hits.hits._seq_no,hits.hits._primary_term,hits.hits.fields',
      body,
    ).then(
      // With filter_path, a search without hits answers `{}`.
      (answer) => answer.hits?.hits ?? [],
    );
  }

  /** `POST /<index>/_search` keeping only the total hits and the aggregations (term statistics). */
  aggregate<A>(index: string, body: object): Promise<{ total: number; aggregations: A | undefined }> {
    return this.post<{ hits?: { total?: { value?: number } }; aggregations?: A }>(index, 'hits.total,aggregations', body).then((answer) => ({
      total: answer.hits?.total?.value ?? 0,
      aggregations: answer.aggregations,
    }));
  }

  /** A search on the next live node; a node that cannot be reached passes it to the next one. */
  private async post<R>(index: string, filterPath: string, body: object): Promise<R> {
    // A cluster known to be down fails the request at once (health/monitor.ts).
    if (this.isDown?.()) throw new StoreUnavailableError('elasticsearch');
    const json = JSON.stringify(body);
    let lastError: unknown;
    for (let attempt = 0; attempt < this.nodes.length; attempt++) {
      const node = this.pick();
      try {
        return await this.postOn<R>(node, index, filterPath, json);
      } catch (error) {
        if (!(error instanceof NodeUnreachableError)) throw error;
        node.deadUntil = Date.now() + 5000;
        lastError = error.cause;
      }
    }
    throw lastError;
  }

  /** The next node round the list, a live one when there is one. */
  private pick(): HotSearch['nodes'][number] {
    const now = Date.now();
    for (let i = 0; i < this.nodes.length; i++) {
      const node = this.nodes[(this.next + i) % this.nodes.length];
      if (node.deadUntil <= now) {
        this.next = (this.next + i + 1) % this.nodes.length;
        return node;
      }
    }
    return this.nodes[this.next++ % this.nodes.length];
  }

  private postOn<R>(node: HotSearch['nodes'][number], index: string, filterPath: string, json: string): Promise<R> {
    const path = `${node.basePath}/${encodeURIComponent(index)}/_search?filter_path=${filterPath}`;
    return new Promise((resolve, reject) => {
      let status = 0;
      const chunks: Buffer[] = [];
      const handler: Dispatcher.DispatchHandlers = {
        onConnect() {},
        onError(error) {
          // Nothing came back from this node: another one can take the request.
          reject(status === 0 && isConnectionFailure(error) ? new NodeUnreachableError(transportError(error)) : transportError(error));
        },
        onHeaders(statusCode) {
          status = statusCode;
          return true;
        },
        onData(chunk) {
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
          if (status < 200 || status >= 300) {
            reject(new EsStatusError(status, `Elasticsearch answered ${status} to a search: ${text.slice(0, 500)}`));
            return;
          }
          try {
            resolve(JSON.parse(text) as R);
          } catch (error) {
            reject(new errors.DeserializationError((error as Error).message, text.slice(0, 500)));
          }
        },
      };
      try {
        node.pool.dispatch({ method: 'POST', path, headers: node.headers, body: json }, handler);
      } catch (error) {
        reject(transportError(error));
      }
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.pool.close()));
  }
}

/** A node that could not be reached (the request never got an answer from it). */
class NodeUnreachableError extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

/** Refused, reset or closed before an answer: the node is gone, not slow. */
function isConnectionFailure(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (
    error instanceof undiciErrors.SocketError ||
    error instanceof undiciErrors.ConnectTimeoutError ||
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'UND_ERR_SOCKET'
  );
}

/** An undici failure as the Elasticsearch client's error class (timeout or connection). */
function transportError(error: unknown): Error {
  const message = (error as Error).message ?? String(error);
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  ) {
    return new errors.TimeoutError(`Elasticsearch did not answer in time: ${message}`);
  }
  return new errors.ConnectionError(`Elasticsearch is unreachable: ${message}`);
}

/** A non-2xx answer of the hot path. */
export class EsStatusError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * True when an error means the cluster cannot serve now (as opposed to a bad request):
 * unreachable, too slow, or answering 503 (no shard available, a node starting) or 429
 * (its queues are full).
 */
export function isEsUnavailable(error: unknown): boolean {
  if (error instanceof errors.ConnectionError || error instanceof errors.TimeoutError || error instanceof errors.NoLivingConnectionsError) return true;
  const status = error instanceof errors.ResponseError || error instanceof EsStatusError ? error.statusCode : undefined;
  return status === 503 || status === 429;
}

/**
 * True when Elasticsearch refused a request of ours (any answer but the unavailable ones):
 * the request was built here, so a 4xx is our fault, never the client's.
 */
export function isEsRefusal(error: unknown): boolean {
  return (error instanceof errors.ResponseError || error instanceof EsStatusError) && !isEsUnavailable(error);
}

/** Maps transport failures to a 503; other errors pass through. */
export function mapEsError(error: unknown): unknown {
  return isEsUnavailable(error) ? new StoreUnavailableError('elasticsearch', error) : error;
}
