/**
 * A Shelfmark server started for the benchmark: `node --import tsx src/main.ts` on a free
 * loopback port, quiet logs, no in-process worker (nothing is indexed during the run) and
 * rate limits high enough that the load is never refused. Stopped with SIGTERM (graceful
 * shutdown), then SIGKILL if it does not exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export interface StartedServer {
  url: string;
  pid: number;
  /** The environment the benchmark set (on top of the inherited one). */
  env: Record<string, string>;
  /** The exit code or signal when the process has ended on its own; undefined while it runs. */
  exitStatus(): string | undefined;
  /** The last few kB the process wrote (stdout and stderr), for failure messages. */
  outputTail(): string;
  stop(): Promise<void>;
}

/** A port the OS says is free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Env the benchmark's own server runs with. */
export function benchServerEnv(port: number): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    WORKER_MODE: 'off',
    RATE_LIMIT_ANON_PER_MINUTE: '1000000',
    RATE_LIMIT_KEY_PER_MINUTE: '1000000',
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startServer(
  rootDir: string,
  options: { startTimeoutMs?: number; extraEnv?: Record<string, string>; port?: number } = {},
): Promise<StartedServer> {
  const port = options.port ?? (await freePort());
  const env = { ...benchServerEnv(port), ...options.extraEnv };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'main.ts')], {
    cwd: rootDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = signal ?? String(code)));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 90_000);
  for (;;) {
    if (exited !== undefined) throw new Error(`the server exited (code ${exited}) before answering:\n${output.trim()}`);
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`the server did not answer /healthz with 200 within ${(options.startTimeoutMs ?? 90_000) / 1000} s:\n${output.trim()}`);
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      await res.text();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  if (child.pid === undefined) throw new Error('the server process has no pid');
  return { url, pid: child.pid, env, exitStatus: () => exited, outputTail: () => output.trim(), stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const killed = await Promise.race([exited.then(() => true), sleep(25_000).then(() => false)]);
  if (!killed) {
    child.kill('SIGKILL');
    await exited;
  }
}
