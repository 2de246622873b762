/**
 * Before the clock starts: the soak's own two servers (A and B, each with the in-process
 * worker, on the private stores, allowed to clone from the soak's Git server), or the
 * servers named with --url; and afterwards, stopping and dropping what was started.
 */
import http from 'node:http';
import path from 'node:path';
import { ROOT_DIR } from '../../../src/config';
import type { GitServer } from '../../../test/git-server';
import { sendRequest } from '../harness/load';
import { startServer, type StartedServer } from '../harness/server';
import { readDataset, libraryIdOf } from '../../eval/dataset';
import { contextOp, benchSpec, type Question } from './mix';
import { createAdminAccess, dropPrivateStores, loadCorpusLibraries, openPrivateStores, type PrivateStores } from './stores';
import { openApiDocs, type OpenApiDoc } from './fixtures';
import { startSoakGit } from './writer';
import type { SoakRepo } from './fixtures';
import type { SoakOptions } from './options';
import type { Server } from './traffic';

/** The servers' add/refresh wait: an add answers 200 or, while its job carries on, 504 — well inside the 10 s deadline. */
export const ADD_WAIT_SECONDS = 4;

export interface Prepared {
  servers: Server[];
  /** Server name → process id, for RSS. */
  pids: Record<string, number>;
  key?: string;
  /** The administrator's credentials, for dashboard-session calls (key management). */
  login?: { username: string; password: string };
  questions: Question[];
  /** Set when the soak started its own servers (and may write). */
  own?: { stores: PrivateStores; git: GitServer; repos: SoakRepo[]; reserve: SoakRepo[]; docs: OpenApiDoc[]; started: StartedServer[] };
  notes: string[];
}

/** The env of the soak's servers, on top of the bench's (quiet logs, high rate limits). */
export function soakServerEnv(stores: Record<string, string>, gitUrl: string): Record<string, string> {
  return {
    ...stores,
    LOG_LEVEL: 'warn',
    WORKER_MODE: 'in-process',
    GIT_ALLOWED_URL_PREFIXES: `${gitUrl}/`,
    GITHUB_BASE_URL: gitUrl,
    ADD_WAIT_SECONDS: String(ADD_WAIT_SECONDS),
    RATE_LIMIT_ANON_PER_MINUTE: '100000',
    RATE_LIMIT_KEY_PER_MINUTE: '100000',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
  };
}

export async function prepareOwnServers(options: SoakOptions, name: string, datasetFile: string, say: (line: string) => void): Promise<Prepared> {
  const notes: string[] = [];
  say(`Private stores: MongoDB database and Elasticsearch index prefix "${name}" (dropped at the end)`);
  const stores = await openPrivateStores(name);
  const started: StartedServer[] = [];
  let git: GitServer | undefined;
  try {
    const admin = await createAdminAccess(stores.services);
    const corpus = await loadCorpusLibraries(stores, options, datasetFile, say);
    if (corpus.note) notes.push(corpus.note);
    const soakGit = await startSoakGit(options.chaos);
    git = soakGit.git;
    const docs = openApiDocs(path.join(options.corpus, 'openapi'));
    if (docs.note) notes.push(docs.note);
    for (const serverName of ['A', 'B']) {
      say(`Starting server ${serverName} (in-process worker, rate limits raised, ADD_WAIT_SECONDS=${ADD_WAIT_SECONDS}) …`);
      const s = await startServer(ROOT_DIR, { extraEnv: soakServerEnv(stores.env, git.url) });
      started.push(s);
      say(`  ${serverName}: ${s.url} (pid ${s.pid})`);
    }
    return {
      servers: started.map((s, i) => ({ name: i === 0 ? 'A' : 'B', url: s.url })),
      pids: Object.fromEntries(started.map((s, i) => [i === 0 ? 'A' : 'B', s.pid])),
      key: admin.key,
      login: admin.login,
      questions: corpus.questions,
      own: { stores, git, repos: soakGit.repos, reserve: soakGit.reserve, docs: docs.docs, started },
      notes,
    };
  } catch (error) {
    for (const s of started) await s.stop();
    await git?.close();
    await dropPrivateStores(stores).catch(() => undefined);
    throw error;
  }
}

/** --url: the named servers, their pids if given, and the eval questions of the libraries they serve. */
export async function prepareUrlServers(options: SoakOptions, datasetFile: string, say: (line: string) => void): Promise<Prepared> {
  const servers = options.urls.map((url, i) => ({ name: String.fromCharCode(65 + i), url }));
  const notes = [
    '--url: a read-only mix (context, search, MCP, bad inputs, and admin reads with --api-key); adds, refreshes, uploads and key create/delete (a dashboard session) need the servers the soak starts',
  ];
  if (options.pids.length === 0) notes.push('RSS not measured: pass --pid with --url');
  if (!options.apiKey) notes.push('no --api-key: no admin calls, no job counts, no invariants');
  const questions: Question[] = [];
  let entries: ReturnType<typeof readDataset> = [];
  try {
    entries = readDataset(datasetFile);
  } catch {
    notes.push(`no eval questions at ${datasetFile}`);
  }
  const agent = new http.Agent({ keepAlive: true });
  try {
    for (const library of new Set(entries.map((e) => e.library))) {
      const mine = entries.filter((e) => e.library === library).map((e) => ({ libraryId: libraryIdOf(e), query: e.query }));
      const a = await sendRequest(agent, benchSpec(contextOp(servers[0].url, mine[0], 'json', options.apiKey).spec), { timeoutMs: 10_000 });
      if (a.status === 200) questions.push(...mine);
    }
  } finally {
    agent.destroy();
  }
  say(`Soaking ${servers.map((s) => `${s.name} ${s.url}`).join(', ')}: ${questions.length} eval questions answerable`);
  return { servers, pids: Object.fromEntries(options.pids.map((pid, i) => [servers[i].name, pid])), key: options.apiKey, questions, notes };
}

/** Stops the soak's servers and Git server and drops its stores; returns what could not be cleaned. */
export async function teardown(prepared: Prepared): Promise<string[]> {
  const problems: string[] = [];
  if (!prepared.own) return problems;
  for (const s of prepared.own.started) await s.stop();
  await prepared.own.git.close();
  try {
    await dropPrivateStores(prepared.own.stores);
  } catch (error) {
    problems.push(
      `could not drop the soak's stores "${prepared.own.stores.name}" (${(error as Error).message}): drop the MongoDB database and the Elasticsearch indices ${prepared.own.stores.name}-* by hand`,
    );
  }
  return problems;
}
