/**
 * Authentication and rate-limiting overhead. The `smk_` key is created through the same use
 * cases the admin API calls (a temporary member user and its key), so the server resolves it
 * exactly as it would a dashboard-made key; both are deleted afterwards. Skipped with a
 * reason when the stores have no auth module yet.
 */
import crypto from 'node:crypto';
import type { Ports } from '../../../src/ports';
import { ROOT_DIR } from '../../../src/config';
import type { EvalEntry } from '../../eval/dataset';
import { runClosedLoop } from '../harness/load';
import { anySuccess, checkPass, measureInterleaved } from './measure';
import type { RunResult } from './report';
import { startServer } from '../harness/server';
import { contextRequests } from './workload';

export type BenchKey = { value: string; dispose(): Promise<void> } | { skipped: string };

export async function createBenchKey(services: Ports): Promise<BenchKey> {
  const { accounts, keys } = services as Partial<Ports>;
  if (typeof accounts?.createUser !== 'function' || typeof keys?.create !== 'function') {
    return { skipped: 'the auth module (accounts, keys) is not available in this build' };
  }
  try {
    const user = await accounts.createUser({
      username: `bench-${crypto.randomBytes(4).toString('hex')}`,
      password: crypto.randomBytes(24).toString('base64url'),
      role: 'member',
    });
    const { value } = await keys.create(user._id, 'shelfmark bench (temporary)');
    return { value, dispose: () => accounts.deleteUser(user._id) };
  } catch (error) {
    return { skipped: `could not create a key: ${(error as Error).message}` };
  }
}

/** Which run each authentication mode is compared with (always one on the same server). */
export const AUTH_BASELINES: Record<string, string> = {
  'smk_ key': 'anonymous',
  'API_KEY, no rate limit (server 2)': 'smk_ key (server 2)',
};

/**
 * Context at one client: anonymous and with an `smk_` key on the main server; then, on a
 * second server started with a global API_KEY (whose service principal skips rate
 * limiting), the `smk_` key again and the global key, so each difference is taken between
 * runs on the same process.
 */
export async function measureAuth(
  services: Ports,
  url: string,
  entries: readonly EvalEntry[],
  options: { apiKey?: string; durationMs: number; existingServer: boolean },
  notes: string[],
): Promise<RunResult[]> {
  let key: string | undefined = options.apiKey;
  let dispose: (() => Promise<void>) | undefined;
  if (!key) {
    const created = await createBenchKey(services);
    if ('skipped' in created) {
      notes.push(`Authentication overhead not measured: ${created.skipped}`);
      return [];
    }
    key = created.value;
    dispose = created.dispose;
  }
  const runs: RunResult[] = [];
  try {
    console.error('Authentication overhead (context, 1 client) …');
    const check = await checkPass(contextRequests(url, entries.slice(0, 3), key));
    if (!anySuccess(check.statuses)) {
      notes.push(`Authentication overhead not measured: the server refused the smk_ key (${check.firstFailure ?? 'no answer'})`);
      return [];
    }
    runs.push(
      ...(await measureInterleaved(
        [
          { target: 'anonymous', requests: contextRequests(url, entries) },
          { target: 'smk_ key', requests: contextRequests(url, entries, key) },
        ],
        1,
        options.durationMs,
      )),
    );
    if (options.existingServer) {
      notes.push('Rate-limit bypass not measured against an existing server (the bench starts a second server with API_KEY for it).');
      return runs;
    }
    const serviceKey = crypto.randomBytes(24).toString('hex');
    console.error('  starting a second server with a global API_KEY (rate limiting skipped for it) …');
    const second = await startServer(ROOT_DIR, { extraEnv: { API_KEY: serviceKey } });
    try {
      // Warm the new process on the same questions before measuring.
      await runClosedLoop({ concurrency: 1, durationMs: Math.min(5000, options.durationMs), requests: contextRequests(second.url, entries, serviceKey) });
      runs.push(
        ...(await measureInterleaved(
          [
            { target: 'smk_ key (server 2)', requests: contextRequests(second.url, entries, key) },
            { target: 'API_KEY, no rate limit (server 2)', requests: contextRequests(second.url, entries, serviceKey) },
          ],
          1,
          options.durationMs,
        )),
      );
    } finally {
      await second.stop();
    }
    return runs;
  } finally {
    await dispose?.();
  }
}
