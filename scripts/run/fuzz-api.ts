/**
 * `npm run fuzz:api -- [--auth admin-key|member-key|anonymous] [--max-examples 20] [--seed N] [--out .fuzz] [--rejections fail|report] [--paths <regex>]`
 *
 * `--paths` fuzzes only the operations whose path matches (e.g. `^/v2/projects`).
 *
 * The OpenAPI-driven fuzz run of the HTTP API: starts a server on private, throwaway stores
 * (its own database and index prefix, dropped afterwards; rate limits raised) and calls it
 * as `--auth` says: an administrator's API key (the default: every operation is reached,
 * the session-only ones answer their documented 403), a member's key (whose team owns a
 * private library, so resource checks answer too) or no credentials at all. Then it runs
 * schemathesis
 * (scripts/install/ensure-schemathesis.sh: PyPI, pinned, in a venv under ~/.cache/shelfmark) over
 * every operation of /v2/openapi.json, positive and negative data, with the checks that
 * matter here: no 5xx, every status, content type, header and body as the document says.
 *
 * Prints, per operation, the generated requests, how many valid ones (schemathesis' positive
 * mode) the server rejected as invalid (400/413/422), and the failures; exits non-zero on
 * any failure, and (unless `--rejections report`, as CI runs it) when an operation rejects 10%
 * or more of its valid requests — a target, not a correctness rule: some operations reject
 * what no schema can say (an add whose URL is unreachable from here, a body that is not a
 * real bundle).
 */
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { loadConfig, ROOT_DIR } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createServices, openStores, portsOf } from '../../src/services';
import { dropTestStores } from '../../test/drop-stores';
import type { Ports } from '../../src/ports';
import { createApp } from '../../src/http/app';
import { seedLibrary } from '../../test/helpers';

const CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_headers_conformance', 'response_schema_conformance'];
const REJECTION_TARGET = 0.1;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      auth: { type: 'string', default: 'admin-key' },
      'max-examples': { type: 'string', default: '20' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: path.join(ROOT_DIR, '.fuzz') },
      rejections: { type: 'string', default: 'fail' },
      paths: { type: 'string' },
    },
  });
  if (values.rejections !== 'fail' && values.rejections !== 'report') throw new Error('--rejections is fail or report');
  if (!['admin-key', 'member-key', 'anonymous'].includes(values.auth)) throw new Error('--auth is admin-key, member-key or anonymous');
  const st = execFileSync('bash', [path.join(ROOT_DIR, 'scripts', 'install', 'ensure-schemathesis.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  const name = `fuzz${process.pid}${crypto.randomBytes(3).toString('hex')}`;
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    MONGODB_DB: name,
    SHELFMARK_INDEX_PREFIX: name,
    SHELFMARK_SECRET: process.env.SHELFMARK_SECRET ?? crypto.randomBytes(32).toString('hex'),
    SHELFMARK_DEMO_LIBRARY: 'off',
    SHELFMARK_EMBEDDINGS: 'off',
    // Adds of URLs this server cannot reach fail in their jobs (400s): waited for, not 504s.
    ADD_WAIT_SECONDS: '90',
    WEB_PAGE_TIMEOUT_MS: '3000',
    RATE_LIMIT_ANON_PER_MINUTE: '1000000',
    RATE_LIMIT_KEY_PER_MINUTE: '1000000',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000000',
  });
  const log = createLogger(config.logLevel);
  const handles = await openStores(config, log);
  const composition = await createServices(config, log, handles);
  const { lifecycle } = composition;
  const services = portsOf(composition);
  if (config.workerMode === 'in-process') lifecycle.startWorker();
  // A user's own key (not the global API_KEY): its routes (keys, credentials) need a user.
  const apiKey = await fuzzCredential(services, values.auth);
  console.log(`calling the API as: ${values.auth}`);
  // A library to aim the library operations at: with random ids they would all answer 404
  // and never reach their bodies' checks (the config file below names it for them).
  await seedLibrary({ services }, FUZZ_LIBRARY, {
    'docs/guide.md': '# Guide\n\n## Setting a widget up\n\nCall `setup()` once:\n\n```js\nsetup({ size: 3 });\n```\n',
  });
  const server = createApp(services, lifecycle).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const project = apiKey ? await seedProject(base, apiKey) : undefined;
  fs.mkdirSync(values.out, { recursive: true });
  const ndjson = path.join(values.out, 'events.ndjson');
  const configFile = path.join(values.out, 'schemathesis.toml');
  fs.writeFileSync(configFile, schemathesisConfig(project));
  let code = 1;
  try {
    const started = Date.now();
    const status = await run(st, [
      '--config-file',
      configFile,
      'run',
      `${base}/v2/openapi.json`,
      '--url',
      base,
      ...(apiKey ? ['-H', `Authorization: Bearer ${apiKey}`] : []),
      '--checks',
      CHECKS.join(','),
      '--max-examples',
      values['max-examples'],
      '--seed',
      values.seed,
      ...(values.paths ? ['--include-path-regex', values.paths] : []),
      '--workers',
      '2',
      '--no-color',
      // Above ADD_WAIT_SECONDS: an add waits for its job, which can queue behind other adds
      // of the run (the in-process worker takes one at a time), so the server answers within
      // its wait; a shorter client timeout reported such waits as network errors.
      '--request-timeout',
      '100',
      '--report',
      'ndjson',
      '--report-ndjson-path',
      ndjson,
    ]);
    const summary = summarize(fs.readFileSync(ndjson, 'utf8'));
    console.log(`\nschemathesis exit ${status}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    console.log(summary.table);
    // schemathesis exits 1 for its own crashes too (a Python error while generating, reported as
    // NonFatalError): those fail no check of ours. Counted as a pass only when no check failed
    // and no answer was a 5xx; they are printed either way.
    const events = fs.readFileSync(ndjson, 'utf8');
    const checkFailures = (events.match(/"status":\s*"failure"/g) ?? []).length;
    const serverErrors = [...events.matchAll(/"status_code":\s*(\d{3})/g)].filter((m) => Number(m[1]) >= 500).length;
    const onlyItsOwnErrors = status !== 0 && checkFailures === 0 && serverErrors === 0 && events.includes('"NonFatalError"');
    if (onlyItsOwnErrors)
      console.log(
        'schemathesis reported only runtime errors of its own (no check failed, no 5xx): see its "Errors" above; not counted as a failure of the API',
      );
    code = (status === 0 || onlyItsOwnErrors) && (summary.overTarget.length === 0 || values.rejections === 'report') ? 0 : 1;
    if (summary.overTarget.length) console.log(`operations rejecting >= ${REJECTION_TARGET * 100}% of valid requests: ${summary.overTarget.join(', ')}`);
  } finally {
    server.close();
    await lifecycle.worker?.stop();
    await services.usage.flush();
    await dropTestStores({ es: handles.es, prefix: name, mongo: handles.mongo });
    await lifecycle.close();
  }
  process.exit(code);
}

const FUZZ_LIBRARY = '/fuzz/docs';

/**
 * Per-operation settings: the operations on one library (read, update, export, webhook,
 * context) get the seeded library's id; deleting it is left to random ids, so it stays for
 * the others.
 */
/** A project to aim the project operations at (their bodies are checked only past the 404 of a random id). */
async function seedProject(base: string, apiKey: string): Promise<string | undefined> {
  const form = new FormData();
  form.set('lockfile', new Blob(['module example.com/app\n\ngo 1.22\n\nrequire github.com/fuzz/docs v1.0.0\n']), 'go.mod');
  const res = await fetch(`${base}/v2/projects`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: form });
  return res.ok ? ((await res.json()) as { id: string }).id : undefined;
}

function schemathesisConfig(project?: string): string {
  const [, owner, repo] = FUZZ_LIBRARY.split('/');
  const projectOps = [
    'GET /v2/projects/{projectId}',
    'PUT /v2/projects/{projectId}/lockfile',
    'POST /v2/projects/{projectId}/remap',
    'POST /v2/projects/{projectId}/refresh',
    'POST /v2/projects/{projectId}/webhook',
    'POST /v2/projects/{projectId}/push',
  ];
  const library = ['GET', 'PATCH']
    .map((m) => `${m} /v2/libraries/{owner}/{repo}`)
    .concat(['GET /v2/libraries/{owner}/{repo}/export', 'POST /v2/libraries/{owner}/{repo}/webhook']);
  return [
    ...library.map((name) => `[[operations]]\ninclude-name = "${name}"\nparameters = { "path.owner" = "${owner}", "path.repo" = "${repo}" }\n`),
    `[[operations]]\ninclude-name = "GET /v2/context"\nparameters = { "query.libraryId" = "${FUZZ_LIBRARY}" }\n`,
    ...(project ? projectOps.map((name) => `[[operations]]\ninclude-name = "${name}"\nparameters = { "path.projectId" = "${project}" }\n`) : []),
  ].join('\n');
}

/** The key the run sends (none for `anonymous`): an admin's, or a member's who owns a team. */
async function fuzzCredential(services: Ports, auth: string): Promise<string | undefined> {
  if (auth === 'anonymous') return undefined;
  const password = crypto.randomBytes(16).toString('hex');
  if (auth === 'admin-key') {
    const admin = await services.users.create({ username: 'fuzz-admin', password, role: 'admin', mustChangePassword: false, memberships: [] });
    return (await services.keys.create(admin._id, 'fuzz')).value;
  }
  const member = await services.accounts.createUser({ username: 'fuzz-member', password, role: 'member' });
  await services.accounts.createTeam({ name: 'fuzz team', plan: 'pro', ownerId: member._id });
  return (await services.keys.create(member._id, 'fuzz')).value;
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (status) => resolve(status ?? 1));
  });
}

/** The part of a schemathesis 4 scenario record read here (its NDJSON report). */
interface Recorder {
  label: string;
  cases?: Record<string, { value: { meta?: { generation?: { mode?: string } } } }>;
  interactions?: Record<string, { response?: { status_code?: number } }>;
}

interface OperationCounts {
  requests: number;
  positive: number;
  rejected: number;
  serverErrors: number;
}

/** Per-operation counts from schemathesis' NDJSON events (one ScenarioFinished per scenario). */
export function summarize(text: string): { table: string; overTarget: string[] } {
  const ops = new Map<string, OperationCounts>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const finished = (JSON.parse(line) as { ScenarioFinished?: { recorder: Recorder } }).ScenarioFinished;
    if (!finished) continue;
    const { label, cases = {}, interactions = {} } = finished.recorder;
    for (const [id, c] of Object.entries(cases)) {
      const status = interactions[id]?.response?.status_code;
      if (typeof status !== 'number') continue;
      const counts = ops.get(label) ?? { requests: 0, positive: 0, rejected: 0, serverErrors: 0 };
      counts.requests += 1;
      if (status >= 500) counts.serverErrors += 1;
      if (c.value.meta?.generation?.mode === 'positive') {
        counts.positive += 1;
        if ([400, 413, 422, 431].includes(status)) counts.rejected += 1;
      }
      ops.set(label, counts);
    }
  }
  const rows = [...ops.entries()].sort(([a], [b]) => a.localeCompare(b));
  const overTarget = rows.filter(([, c]) => c.positive > 0 && c.rejected / c.positive >= REJECTION_TARGET).map(([op]) => op);
  const table = [
    'operation'.padEnd(48) + 'requests  valid  rejected  5xx',
    ...rows.map(
      ([op, c]) =>
        `${op.padEnd(48)}${String(c.requests).padStart(8)}${String(c.positive).padStart(7)}${`${c.rejected} (${c.positive ? Math.round((100 * c.rejected) / c.positive) : 0}%)`.padStart(10)}${String(c.serverErrors).padStart(5)}`,
    ),
  ].join('\n');
  return { table, overTarget };
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
