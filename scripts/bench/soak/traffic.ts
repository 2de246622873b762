/**
 * The soak's clients: one sender that classifies and records every answer, the question
 * pool the readers draw from, the paced reader loops and the admin loop (reads of the
 * admin API and a key's whole life: create, use, delete, refused).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { sendRequest, type Answer } from '../harness/load';
import { classifyAnswer, errorCodeOf, WEDGE_MS } from './classify';
import type { RequestSample } from './minute';
import { adminOps, badInputOps, benchSpec, contextOp, mcpOp, pick, pickWeighted, searchOp, type Op, type Question, type Random } from './mix';

export interface Server {
  name: string;
  url: string;
}

/** Stops every loop at once; `sleep` wakes early when stopped. */
export class Stopper {
  stopped = false;
  private readonly sleepers = new Set<() => void>();

  stop(): void {
    this.stopped = true;
    for (const wake of [...this.sleepers]) wake();
  }

  sleep(ms: number): Promise<void> {
    if (this.stopped || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }
}

export interface Sent {
  sample: RequestSample;
  body: string;
}

/** Sends a call, classifies its answer and hands the sample to the recorder. */
export class SoakClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  constructor(
    private readonly record: (r: RequestSample) => void,
    private readonly clock: () => number,
    private readonly chaosOpen: () => boolean,
  ) {}

  async send(op: Op, server: Server): Promise<Sent> {
    const at = this.clock();
    const chaosBefore = this.chaosOpen();
    const answer = await sendRequest(this.agent, benchSpec(op.spec), { timeoutMs: WEDGE_MS, keepBody: true });
    return { sample: this.recordAnswer(op, server, at, chaosBefore, answer), body: answer.body ?? '' };
  }

  /**
   * Signs in to the dashboard API (`POST /v2/auth/login`) and returns the session cookie and
   * its CSRF token; undefined when refused. Sent with fetch: the bench's sender does not
   * return the response headers that carry the cookies.
   */
  async login(server: Server, credentials: { username: string; password: string }): Promise<{ cookie: string; csrf: string } | undefined> {
    const op: Op = {
      kind: 'login',
      spec: { method: 'POST', url: new URL('/v2/auth/login', server.url), headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) },
      expect: { ok: [200] },
    };
    const at = this.clock();
    const chaosBefore = this.chaosOpen();
    const started = performance.now();
    let answer: Answer;
    let cookies: string[] = [];
    try {
      const res = await fetch(op.spec.url, { method: 'POST', headers: op.spec.headers, body: op.spec.body, signal: AbortSignal.timeout(WEDGE_MS) });
      const body = await res.text();
      cookies = res.headers.getSetCookie();
      answer = { status: res.status, ms: performance.now() - started, body };
    } catch (error) {
      answer = { status: 0, ms: performance.now() - started, error: (error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message };
    }
    const sample = this.recordAnswer(op, server, at, chaosBefore, answer);
    if (sample.status !== 200) return undefined;
    const value = (name: string) =>
      cookies
        .map((c) => c.split(';')[0])
        .find((c) => c.startsWith(`${name}=`))
        ?.slice(name.length + 1);
    const session = value('shelfmark_session');
    const csrf = value('shelfmark_csrf');
    return session && csrf ? { cookie: `shelfmark_session=${session}; shelfmark_csrf=${csrf}`, csrf } : undefined;
  }

  private recordAnswer(op: Op, server: Server, at: number, chaosBefore: boolean, answer: Answer): RequestSample {
    const body = answer.body ?? '';
    const bodyProblem = op.check && op.expect.ok.includes(answer.status) ? op.check(body) : undefined;
    const c = classifyAnswer(
      { status: answer.status, ms: answer.ms, error: answer.error, code: answer.status >= 400 ? errorCodeOf(body) : undefined, bodyProblem },
      op.expect,
      chaosBefore || this.chaosOpen(),
    );
    const where = `${op.spec.method} ${op.spec.url.pathname}${op.spec.url.search.slice(0, 80)}`;
    const sample: RequestSample = {
      at,
      kind: op.kind,
      server: server.name,
      status: answer.status,
      ms: Math.round(answer.ms * 10) / 10,
      outcome: c.outcome,
      ...(c.detail ? { detail: `${c.detail} — ${where}` } : {}),
    };
    this.record(sample);
    return sample;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The questions readers ask, growing as libraries become queryable. */
export class QuestionPool {
  private readonly questions: Question[] = [];
  private readonly libraries = new Set<string>();

  /** Adds a library's questions once. */
  add(libraryId: string, questions: readonly Question[]): void {
    if (this.libraries.has(libraryId) || questions.length === 0) return;
    this.libraries.add(libraryId);
    this.questions.push(...questions);
  }

  has(libraryId: string): boolean {
    return this.libraries.has(libraryId);
  }

  get size(): number {
    return this.questions.length;
  }

  pick(random: Random): Question {
    return pick(this.questions, random);
  }
}

type ReadKind =
  | 'context txt anon'
  | 'context txt key'
  | 'context json anon'
  | 'context json key'
  | 'search anon'
  | 'search key'
  | 'mcp initialize'
  | 'mcp tools/list'
  | 'mcp resolve'
  | 'mcp query'
  | 'bad';

/** The readers' mix, by weight: mostly context, then search and MCP, some bad inputs. */
export const READ_MIX: ReadonlyArray<readonly [ReadKind, number]> = [
  ['context txt anon', 20],
  ['context txt key', 6],
  ['context json anon', 6],
  ['context json key', 10],
  ['search anon', 10],
  ['search key', 4],
  ['mcp initialize', 2],
  ['mcp tools/list', 2],
  ['mcp resolve', 5],
  ['mcp query', 8],
  ['bad', 8],
];

export function readOp(kind: ReadKind, base: string, q: Question, key: string | undefined, n: number, random: Random): Op {
  switch (kind) {
    case 'context txt anon':
      return contextOp(base, q, 'txt', undefined);
    case 'context txt key':
      return contextOp(base, q, 'txt', key);
    case 'context json anon':
      return contextOp(base, q, 'json', undefined);
    case 'context json key':
      return contextOp(base, q, 'json', key);
    case 'search anon':
      return searchOp(base, q, undefined);
    case 'search key':
      return searchOp(base, q, key);
    case 'mcp initialize':
      return mcpOp(base, q, 'initialize', random() < 0.5 ? key : undefined, n);
    case 'mcp tools/list':
      return mcpOp(base, q, 'tools/list', random() < 0.5 ? key : undefined, n);
    case 'mcp resolve':
      return mcpOp(base, q, 'resolve-library-id', random() < 0.5 ? key : undefined, n);
    case 'mcp query':
      return mcpOp(base, q, 'query-docs', random() < 0.5 ? key : undefined, n);
    case 'bad':
      return pick(badInputOps(base, key, q, n), random);
  }
}

export interface LoopDeps {
  client: SoakClient;
  servers: readonly Server[];
  pool: QuestionPool;
  key: string | undefined;
  stopper: Stopper;
  random: Random;
}

/** One reader: the next call of the mix, to the next server, paced to `intervalMs` per call. */
export async function readerLoop(deps: LoopDeps, intervalMs: number, offset: number): Promise<void> {
  let n = offset;
  await deps.stopper.sleep(Math.floor(deps.random() * intervalMs));
  while (!deps.stopper.stopped) {
    const started = Date.now();
    n++;
    const server = deps.servers[n % deps.servers.length];
    const op = readOp(pickWeighted(READ_MIX, deps.random), server.url, deps.pool.pick(deps.random), deps.key, n, deps.random);
    await deps.client.send(op, server);
    await deps.stopper.sleep(intervalMs - (Date.now() - started));
  }
}

/**
 * The admin loop, every `intervalMs`: usage, a library's metrics, jobs, the catalogue (handed
 * to `onLibraries`), and, with a password, every eighth round a key's life in a dashboard
 * session (keys are managed in sessions, not with keys): sign in, create (201), use (200),
 * delete, use again (401), sign out.
 */
export async function adminLoop(
  deps: LoopDeps & { key: string },
  intervalMs: number,
  login: { username: string; password: string } | undefined,
  onLibraries: (body: string) => void,
): Promise<void> {
  let n = 0;
  while (!deps.stopper.stopped) {
    n++;
    const server = deps.servers[n % deps.servers.length];
    const q = deps.pool.pick(deps.random);
    if (n % 8 === 0 && login) await keyLifecycle(deps, server, n, login);
    else {
      const ops = adminOps(server.url, deps.key, q.libraryId.split('/').slice(0, 3).join('/'));
      const op = ops[n % ops.length];
      const sent = await deps.client.send(op, server);
      if (op.kind === 'libraries' && sent.sample.status === 200) onLibraries(sent.body);
    }
    await deps.stopper.sleep(intervalMs);
  }
}

async function keyLifecycle(deps: LoopDeps, server: Server, n: number, login: { username: string; password: string }): Promise<void> {
  const session = await deps.client.login(server, login);
  if (!session) return;
  const base = server.url;
  const headers = { 'content-type': 'application/json', accept: 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrf };
  try {
    await deps.client.send(
      {
        kind: 'bad empty key name',
        spec: { method: 'POST', url: new URL('/v2/admin/keys', base), headers, body: JSON.stringify({ name: '' }) },
        expect: { ok: [], expected: [400] },
      },
      server,
    );
    const created = await deps.client.send(
      {
        kind: 'key create',
        spec: { method: 'POST', url: new URL('/v2/admin/keys', base), headers, body: JSON.stringify({ name: `soak ${n}` }) },
        expect: { ok: [201] },
      },
      server,
    );
    if (created.sample.status !== 201) return;
    const { id, value } = JSON.parse(created.body) as { id: string; value: string };
    const other = deps.servers[(n + 1) % deps.servers.length];
    const q = deps.pool.pick(deps.random);
    await deps.client.send({ ...contextOp(other.url, q, 'json', value), kind: 'key use' }, other);
    await deps.client.send(
      { kind: 'key delete', spec: { method: 'DELETE', url: new URL(`/v2/admin/keys/${id}`, base), headers }, expect: { ok: [200] } },
      server,
    );
    await deps.client.send({ ...contextOp(other.url, q, 'json', value), kind: 'key use after delete', expect: { ok: [], expected: [401] } }, other);
  } finally {
    await deps.client.send({ kind: 'logout', spec: { method: 'POST', url: new URL('/v2/auth/logout', base), headers }, expect: { ok: [200] } }, server);
  }
}
