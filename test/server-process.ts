/** Runs a real Shelfmark server process (for crash, restart and multi-instance tests). */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { ROOT_DIR } from '../src/config';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** How often a start whose free port was taken meanwhile is tried again, on another port. */
const PORT_ATTEMPTS = 3;

/**
 * `nodeArgs`: what node runs (the TypeScript entry through tsx unless told, e.g. a built dist/main.js).
 * The port is free when chosen but the child binds it seconds later (tsx loads first), when a
 * test running beside it may have taken it: a start that fails with EADDRINUSE is tried again.
 */
export async function startServerProcess(
  env: Record<string, string>,
  nodeArgs = ['--import', 'tsx', path.join(ROOT_DIR, 'src', 'main.ts')],
): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort(env, nodeArgs);
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !/EADDRINUSE/.test((error as Error).message)) throw error;
    }
  }
}

async function startOnFreePort(env: Record<string, string>, nodeArgs: string[]): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT_DIR,
    // Embeddings off unless asked for, as in the in-process harness (a child would load the model and embed every fixture).
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      SHELFMARK_EMBEDDINGS: process.env.SHELFMARK_EMBEDDINGS ?? 'off',
      SHELFMARK_DEMO_LIBRARY: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    if (Date.now() > until) throw new Error(`server did not start: ${out}`);
    const up = await fetch(`${url}/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    child,
    output: () => out,
    kill: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
