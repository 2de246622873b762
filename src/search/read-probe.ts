/**
 * A bounded real read of Elasticsearch for the store monitor: a `size: 0` search on the
 * snippets alias over a small connection pool of its own (undici, no retries), which runs
 * in the monitor's thread without loading the Elasticsearch client.
 */
import { Pool } from 'undici';
import type { ReadProbe } from '../store/mongo-probe';

export function elasticsearchReadProbe(url: string, alias: string): ReadProbe {
  const u = new URL(url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (u.username || u.password) headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`;
  const pool = new Pool(u.origin, { connections: 2 });
  const path = `${u.pathname.replace(/\/+$/, '')}/${encodeURIComponent(alias)}/_search?size=0&filter_path=took`;
  return {
    async read(timeoutMs) {
      const started = performance.now();
      const res = await pool.request({ method: 'POST', path, headers, body: '{}', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
      const text = await res.body.text();
      if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`Elasticsearch answered ${res.statusCode}: ${text.slice(0, 200)}`);
      return performance.now() - started;
    },
    async close() {
      await pool.close().catch(() => undefined);
    },
  };
}
