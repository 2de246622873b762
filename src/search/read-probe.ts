/**
 * A bounded real read of Elasticsearch for the store monitor: a `size: 0` search on the
 * snippets alias over a small connection pool of its own (undici, no retries), which runs
 * in the monitor's thread without loading the Elasticsearch client.
 */
import { Pool } from 'undici';
import type { ReadProbe } from '../store/mongo-probe';

export function elasticsearchReadProbe(urls: string | readonly string[], alias: string): ReadProbe {
  const nodes = (typeof urls === 'string' ? [urls] : [...urls]).map((url) => {
    const u = new URL(url);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (u.username || u.password)
      headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`;
    return {
      pool: new Pool(u.origin, { connections: 2 }),
      headers,
      path: `${u.pathname.replace(/\/+$/, '')}/${encodeURIComponent(alias)}/_search?size=0&filter_path=took`,
    };
  });
  let preferred = 0;
  return {
    // With several nodes, the cluster answers reads when any node does: one that fails is
    // passed over (and the next one preferred), so a lost node does not close the gate.
    async read(timeoutMs) {
      const started = performance.now();
      let lastError: unknown;
      for (let i = 0; i < nodes.length; i++) {
        const at = (preferred + i) % nodes.length;
        const node = nodes[at];
        const left = Math.floor(timeoutMs - (performance.now() - started));
        if (left <= 0) break;
        try {
          const res = await node.pool.request({
            method: 'POST',
            path: node.path,
            headers: node.headers,
            body: '{}',
            headersTimeout: left,
            bodyTimeout: left,
            signal: AbortSignal.timeout(left),
          });
          const text = await res.body.text();
          if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`Elasticsearch answered ${res.statusCode}: ${text.slice(0, 200)}`);
          preferred = at;
          return performance.now() - started;
        } catch (error) {
          lastError = error;
        }
      }
      throw lastError ?? new Error(`Elasticsearch did not answer within ${timeoutMs} ms`);
    },
    async close() {
      await Promise.all(nodes.map((n) => n.pool.close().catch(() => undefined)));
    },
  };
}
