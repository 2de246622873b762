import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { dropStoresNamed, ensureStores, uniqueName } from '../harness';
import { loadConfig, ROOT_DIR } from '../../src/config';
import { WINDOW_MS } from '../../src/auth/rate-limiter';

// Two real server processes sharing one MongoDB hold one combined rate limit.
const name = uniqueName('rl2p');
const env = {
  ...process.env,
  MONGODB_DB: name,
  SHELFMARK_INDEX_PREFIX: name,
  SHELFMARK_SECRET: 'two-process-secret-0123456789abcdef0123',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  WORKER_MODE: 'off',
  SHELFMARK_DEMO_LIBRARY: 'off', // an empty catalogue stays empty: no demo build from either process
  RATE_LIMIT_ANON_PER_MINUTE: '10',
};
const servers: ChildProcess[] = [];

function startServer(): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /"port":(\d+)[^\n]*Shelfmark listening/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

test.before(() => ensureStores());

test.after.always(async () => {
  await Promise.all(
    servers.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
        }),
    ),
  );
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  await dropStoresNamed(config, name);
});

test('two server processes sharing one MongoDB hold a combined rate limit', async (t) => {
  const a = await startServer();
  const b = await startServer();
  t.not(a, b);
  const into = Date.now() % WINDOW_MS;
  if (into > WINDOW_MS - 10_000) await new Promise((r) => setTimeout(r, WINDOW_MS - into + 50));
  const statuses: number[] = [];
  const remaining: string[] = [];
  for (let i = 0; i < 11; i++) {
    const port = i % 2 === 0 ? a : b;
    const res = await fetch(`http://127.0.0.1:${port}/v2/libs/search?libraryName=react`);
    statuses.push(res.status);
    remaining.push(res.headers.get('ratelimit-remaining') ?? '');
    await res.arrayBuffer();
  }
  t.false(statuses.slice(0, 10).includes(429), statuses.join(','));
  t.is(statuses[10], 429, statuses.join(','));
  t.deepEqual(remaining, ['9', '8', '7', '6', '5', '4', '3', '2', '1', '0', '0']);
});
