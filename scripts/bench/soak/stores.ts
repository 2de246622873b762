/**
 * The soak's private corner of the local stores: a database and an index prefix named
 * `soak<timestamp>` (user data is never touched), an administrator key made through the
 * same use cases the dashboard calls, the chosen corpus libraries loaded with
 * scripts/eval/load-corpus.ts, and everything dropped at the end.
 */
import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import { loadConfig, ROOT_DIR } from '../../../src/config';
import { createLogger } from '../../../src/logger';
import { createServices, openStores, portsOf, type Lifecycle, type StoreHandles } from '../../../src/services';
import { dropTestStores } from '../../../test/drop-stores';
import type { Ports } from '../../../src/ports';
import { DEFAULT_ADMIN_ID } from '../../../src/auth/bootstrap';
import { loadCorpus, readManifest } from '../../eval/load-corpus';
import { libraryIdOf, readDataset } from '../../eval/dataset';
import type { Question } from './mix';
import { wantsCorpusLibrary, type SoakOptions } from './options';

export interface PrivateStores {
  name: string;
  /** Environment for the servers the soak starts (the stores' names). */
  env: Record<string, string>;
  services: Ports;
  lifecycle: Lifecycle;
  handles: StoreHandles;
  /** Local files of this run (the corpus' Git copies); removed at the end. */
  runDir: string;
}

/** `soak` + UTC yyyymmddhhmmss: a valid database name and index prefix. */
export function soakName(now: Date): string {
  return `soak${now.toISOString().replace(/[-:T]/g, '').slice(0, 14)}`;
}

export async function openPrivateStores(name: string): Promise<PrivateStores> {
  const base = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const runDir = path.join(ROOT_DIR, '.soak', name);
  fs.mkdirSync(runDir, { recursive: true });
  const env = { MONGODB_DB: name, SHELFMARK_INDEX_PREFIX: name };
  // The loader keeps its Git copies under the data dir: a private one, with the stores and secret of the default one.
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'warn',
    ...env,
    SHELFMARK_DATA_DIR: runDir,
    ELASTICSEARCH_URL: base.elasticsearchUrl,
    MONGODB_URI: base.mongodbUri,
    SHELFMARK_SECRET: base.secret,
  });
  const log = createLogger('warn', process.stderr);
  const handles = await openStores(config, log);
  const composition = await createServices(config, log, handles);
  const { lifecycle } = composition;
  const services = portsOf(composition);
  // The soak's own connection only sets up and cleans up: no store probes while it runs.
  lifecycle.monitor.stop();
  return { name, env, services, lifecycle, handles, runDir };
}

export interface AdminAccess {
  key: string;
  login: { username: string; password: string };
}

/** The default administrator with changed credentials (as after the first login) and a key of theirs. */
export async function createAdminAccess(services: Ports): Promise<AdminAccess> {
  const password = crypto.randomBytes(24).toString('base64url');
  await services.users.setCredentials(DEFAULT_ADMIN_ID, { password });
  const { value } = await services.keys.create(DEFAULT_ADMIN_ID, 'shelfmark soak');
  return { key: value, login: { username: services.config.defaultAdmin.username, password } };
}

export interface CorpusQuestions {
  questions: Question[];
  libraries: string[];
  note?: string;
}

/** Loads the chosen corpus libraries (when the corpus and the eval set exist) and returns their eval questions. */
export async function loadCorpusLibraries(
  { services, lifecycle }: Pick<PrivateStores, 'services' | 'lifecycle'>,
  options: Pick<SoakOptions, 'corpus' | 'corpusLibs'>,
  datasetFile: string,
  say: (line: string) => void,
): Promise<CorpusQuestions> {
  if (options.corpusLibs?.length === 0) return { questions: [], libraries: [], note: 'corpus not loaded (--corpus-libs none)' };
  if (!fs.existsSync(path.join(options.corpus, 'MANIFEST.tsv')))
    return { questions: [], libraries: [], note: `no corpus at ${options.corpus}: context traffic goes to what the soak adds` };
  if (!fs.existsSync(datasetFile)) return { questions: [], libraries: [], note: `no eval questions at ${datasetFile}: corpus not loaded` };
  const only = [...new Set(readManifest(options.corpus).map((r) => r.library))].filter((id) => wantsCorpusLibrary(options, id));
  if (only.length === 0) return { questions: [], libraries: [], note: `none of --corpus-libs ${options.corpusLibs?.join(',')} is in ${options.corpus}` };
  say(`Loading ${only.length} corpus libraries into the soak's stores (${only.join(', ')}) …`);
  lifecycle.startWorker();
  const summary = await loadCorpus(services, options.corpus, { only });
  await lifecycle.worker?.stop();
  const loaded = summary.filter((s) => s.status !== 'failed').map((s) => s.library);
  const failed = summary.filter((s) => s.status === 'failed');
  const questions = readDataset(datasetFile)
    .filter((e) => loaded.includes(e.library))
    .map((e) => ({ libraryId: libraryIdOf(e), query: e.query }));
  return {
    questions,
    libraries: loaded,
    ...(failed.length > 0 ? { note: `corpus libraries that failed to load: ${failed.map((f) => `${f.library} (${f.error})`).join('; ')}` } : {}),
  };
}

/** Drops the soak's database and indices and its local files. */
export async function dropPrivateStores(stores: PrivateStores): Promise<void> {
  await dropTestStores({ es: stores.handles.es, prefix: stores.name, mongo: stores.handles.mongo });
  await stores.lifecycle.close();
  fs.rmSync(stores.runDir, { recursive: true, force: true });
}
