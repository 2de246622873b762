/**
 * scripts/stores/backup.sh on a pair of local stores of its own (a second FerretDB and
 * Elasticsearch started by scripts/stores/services.sh in a temporary data directory, on other
 * ports; the shared stores are never touched): back up, change the installation, restore,
 * and the installation answers as it did at the backup. Then the consistency check finds a
 * version whose snippets are missing.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { ROOT_DIR } from '../../src/config';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, seedLibrary } from '../helpers';

const SERVICES = path.join(ROOT_DIR, 'scripts', 'stores', 'services.sh');
const BACKUP = path.join(ROOT_DIR, 'scripts', 'stores', 'backup.sh');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-backup-stores-'));
const names = { MONGODB_DB: `bk${process.pid}`, SHELFMARK_INDEX_PREFIX: `bk${process.pid}` };
let urls: { ELASTICSEARCH_URL: string; MONGODB_URI: string };
let started = false;
/** The uid of Elasticsearch's user when these tests run as root and it exists (services.sh makes it). */
const esUser = ((): number | undefined => {
  if (process.getuid?.() !== 0) return undefined;
  try {
    return Number(execFileSync('id', ['-u', 'shelfmark-es']).toString().trim());
  } catch {
    return undefined;
  }
})();

function run(file: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const base = { ...process.env };
  delete base.ELASTICSEARCH_URL;
  delete base.MONGODB_URI;
  return new Promise((resolve) => {
    execFile(
      'bash',
      [file, ...args],
      { env: { ...base, SHELFMARK_DATA_DIR: dataDir, ...names, ...env }, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** A test app on the private stores (its own database and prefix there, kept on close). */
async function openApp(): Promise<TestApp> {
  return createTestApp({ ...urls, ...names, SHELFMARK_DATA_DIR: dataDir, WORKER_MODE: 'off', STORE_TIMEOUT_MS: '30000' });
}

async function closeKeeping(app: TestApp): Promise<void> {
  await app.services.usage.flush();
  await app.lifecycle.close();
}

test.before(async () => {
  fs.chmodSync(dataDir, 0o755); // Elasticsearch's user must reach it
  // What the server keeps beside the stores: it must stay the invoking user's through a start
  // (libgit2 refuses a clone another user owns), and an earlier start's damage is repaired.
  fs.mkdirSync(path.join(dataDir, 'clones', 'acme'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'clones', 'acme', 'HEAD'), 'ref: refs/heads/main\n');
  fs.mkdirSync(path.join(dataDir, 'code'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'code', 'tree.json'), '{}');
  if (esUser !== undefined) fs.chownSync(path.join(dataDir, 'code'), esUser, 0);
  if (esUser !== undefined) fs.chownSync(path.join(dataDir, 'code', 'tree.json'), esUser, 0);
  const up = await run(SERVICES, ['up'], { SHELFMARK_SUPERVISE: '0', SHELFMARK_ES_HEAP: '512m', SHELFMARK_ES_PORT: '9650', SHELFMARK_MONGO_PORT: '27650' });
  started = true;
  if (up.code !== 0) throw new Error(`could not start the private stores: ${up.out}`);
  urls = {
    ELASTICSEARCH_URL: fs.readFileSync(path.join(dataDir, 'run', 'es.url'), 'utf8').trim(),
    MONGODB_URI: fs.readFileSync(path.join(dataDir, 'run', 'mongo.url'), 'utf8').trim(),
  };
});

test.after.always(async () => {
  if (started) await run(SERVICES, ['down']);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Only as root does Elasticsearch run as a user of its own; otherwise nothing changes hands.
const asRoot = process.getuid?.() === 0 ? test.serial : test.serial.skip;
asRoot("as root, starting the stores hands the node its own folders only: clones, code trees and the data folder stay the invoking user's", (t) => {
  const owner = (p: string) => fs.statSync(path.join(dataDir, p)).uid;
  t.is(owner('.'), 0);
  t.is(owner('clones/acme/HEAD'), 0);
  t.is(owner('run'), 0);
  if (esUser !== undefined) {
    t.is(owner('code/tree.json'), 0, 'what an earlier start handed over is given back');
    t.is(owner(fs.readdirSync(dataDir).find((n) => n.startsWith('es-data-')) ?? 'missing'), esUser, "the node's data folder is its own");
  }
});

test.serial('backup, change, restore: libraries, snippets and keys are back as they were; the check finds missing snippets', async (t) => {
  let app = await openApp();
  const key = await adminKey(app);
  await seedLibrary(app, '/acme/kept', { 'docs/guide.md': '# Guide\n\n## Deleting a widget\n\nUse `w.destroy()` to free it:\n\n```js\nw.destroy();\n```\n' });
  const ask = async (a: TestApp, libraryId: string) => {
    const res = await a.request.get('/v2/context').query({ libraryId, query: 'delete a widget', type: 'json' });
    return { status: res.status, body: res.body };
  };
  const before = await ask(app, '/acme/kept');
  t.is(before.status, 200);
  await closeKeeping(app);

  const dest = path.join(dataDir, 'backup-1');
  const backup = await run(BACKUP, ['backup', dest]);
  t.is(backup.code, 0, backup.out);
  t.true(fs.existsSync(path.join(dest, 'manifest.json')));
  t.true(fs.existsSync(path.join(dest, 'mongo', `${names.MONGODB_DB}.sqlite`)));
  t.true(fs.readdirSync(path.join(dest, 'elasticsearch')).some((n) => n.startsWith('index-')));
  t.is((await run(BACKUP, ['backup', dest])).code, 1, 'an existing folder is refused');

  // Afterwards: the library is deleted, another one added, the key revoked.
  app = await openApp();
  t.is((await app.request.delete('/v2/libraries/acme/kept').set('Authorization', `Bearer ${key}`)).status, 200);
  await seedLibrary(app, '/acme/later', { 'docs/later.md': '# Later\n\n## Deleting a widget later\n\nUse `w.later()`:\n\n```js\nw.later();\n```\n' });
  const keyId = (await app.services.keys.list('usr_admin'))[0]._id;
  await app.services.keys.delete('usr_admin', keyId);
  t.is((await ask(app, '/acme/kept')).status, 404);
  await closeKeeping(app);

  const restore = await run(BACKUP, ['restore', dest]);
  t.is(restore.code, 0, restore.out);
  t.regex(restore.out, /1 libraries, 1 versions/);

  app = await openApp();
  try {
    t.deepEqual(await ask(app, '/acme/kept'), before);
    t.is((await ask(app, '/acme/later')).status, 404);
    t.is((await app.request.get('/v2/jobs').set('Authorization', `Bearer ${key}`)).status, 200, 'the key is back');

    // The check names a version whose served generation lost its snippets.
    await app.services.snippets.deleteGenerations({ libraryId: '/acme/kept' });
    const check = await new Promise<{ code: number; out: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/stores/backup-check.ts'],
        { cwd: ROOT_DIR, env: { ...process.env, ...urls, ...names, SHELFMARK_DATA_DIR: dataDir } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, out: `${stdout}${stderr}` }),
      ),
    );
    t.is(check.code, 1);
    t.regex(check.out, /MISMATCH \/acme\/kept \(latest\): generation \d+ has 0 snippets/);
  } finally {
    await closeKeeping(app);
  }
});

test.serial('a restore refuses a folder that is not a backup, and a backup of other names', async (t) => {
  t.is((await run(BACKUP, ['restore', dataDir])).code, 1);
  const dest = path.join(dataDir, 'backup-other');
  fs.mkdirSync(dest);
  fs.writeFileSync(
    path.join(dest, 'manifest.json'),
    JSON.stringify({ format: 'shelfmark-backup', formatVersion: 1, mongodbDb: 'other', indexPrefix: 'other', snapshot: 's', mongo: 'sqlite' }),
  );
  const other = await run(BACKUP, ['restore', dest]);
  t.is(other.code, 1);
  t.regex(other.out, /set the same to restore it/);
});
