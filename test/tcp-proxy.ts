/**
 * A loopback TCP proxy in front of a real store, so a test can take "the store" down and
 * bring it back (connections refused, then accepted again) without disturbing the shared
 * Elasticsearch/FerretDB other tests use.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Refuse new connections and cut existing ones. */
  stop(): Promise<void>;
  /** Listen again on the same port. */
  start(): Promise<void>;
  /**
   * Accept connections but never answer, and cut the existing ones (a store that is up but
   * hangs, as a wedged FerretDB does for queries), until `start()`.
   */
  hang(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  let hanging = false;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        if (hanging) {
          sockets.add(client);
          client.on('error', () => sockets.delete(client)).on('close', () => sockets.delete(client));
          return;
        }
        const upstream = net.connect(targetPort, targetHost);
        sockets.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        const addr = s.address();
        if (addr && typeof addr === 'object') port = addr.port;
        server = s;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await listen();
  const start = async () => {
    hanging = false;
    for (const c of sockets) c.destroy();
    sockets.clear();
    if (!server) await listen();
  };
  const hang = async () => {
    hanging = true;
    for (const c of sockets) c.destroy();
    sockets.clear();
    if (!server) await listen();
  };
  return {
    get port() {
      return port;
    },
    stop,
    start,
    hang,
    close: stop,
  };
}
