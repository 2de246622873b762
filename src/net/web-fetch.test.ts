/**
 * One test per SSRF rule of the web fetcher, against real HTTP servers on loopback. Loopback
 * is refused by default, so each test allows exactly what it needs (a name or a CIDR).
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { HostAllowList, HostAllowListError, addressRange, refusedAddress } from './address-policy';
import { createWebFetcher, WebFetchError, type LookupAll } from './web-fetch';
import { createCa, removeTestCerts } from '../../test/tls-certs';

test.after.always(() => removeTestCerts());

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function serve(t: { teardown: (f: () => void) => void }, handler: Handler): Promise<number> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return (server.address() as AddressInfo).port;
}

/** A resolver that answers from a table, counting questions (no /etc/hosts, no network). */
function tableLookup(table: Record<string, string[]>): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (host: string) => {
    calls.push(host);
    return (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(fn, { calls });
}

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (error) {
    return error instanceof WebFetchError ? error.reason : `other: ${(error as Error).message}`;
  }
}

test('address ranges: loopback, private, link-local, metadata, CGNAT, ULA, mapped, multicast are refused; public passes', (t) => {
  const none = HostAllowList.empty;
  for (const a of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    'ff02::1',
  ]) {
    t.truthy(refusedAddress('h', a, none), a);
  }
  for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34']) t.is(refusedAddress('h', a, none), undefined, a);
  t.is(addressRange('::ffff:192.168.0.1'), 'private');
});

test('IPv4-compatible IPv6 addresses (::/96, deprecated) are refused, in every spelling', (t) => {
  const none = HostAllowList.empty;
  // ::7f00:1 is ::127.0.0.1, ::a9fe:a9fe is ::169.254.169.254; ipaddr.js calls both "unicast".
  for (const a of ['::7f00:1', '::a9fe:a9fe', '::a00:1', '::c0a8:101', '0:0:0:0:0:0:5db8:d822', '::127.0.0.1']) t.truthy(refusedAddress('h', a, none), a);
  t.is(addressRange('::7f00:1'), 'ipv4Compatible');
  t.is(refusedAddress('h', '::7f00:1', HostAllowList.parse(['::/96'])), undefined, 'an operator can still allow them');
});

test('WEB_ALLOWED_HOSTS entries: names, IPs and CIDRs (also mapped), bad entries named', (t) => {
  const allow = HostAllowList.parse(['docs.internal', '10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
  t.is(refusedAddress('docs.internal', '192.168.1.1', allow), undefined);
  t.is(refusedAddress('x', '10.9.9.9', allow), undefined);
  t.is(refusedAddress('x', '::ffff:10.9.9.9', allow), undefined);
  t.is(refusedAddress('x', '127.0.0.1', allow), undefined);
  t.truthy(refusedAddress('x', '127.0.0.2', allow));
  t.is(refusedAddress('x', 'fd00:ec2::254', allow), undefined);
  t.truthy(refusedAddress('other.internal', '192.168.1.1', allow));
  t.throws(() => HostAllowList.parse(['10.0.0.0/99']), { instanceOf: HostAllowListError, message: /10\.0\.0\.0\/99/ });
  t.throws(() => HostAllowList.parse(['http://x/']), { instanceOf: HostAllowListError });
});

test('loopback is refused by default, before any byte is sent', async (t) => {
  let hits = 0;
  const port = await serve(t, (_req, res) => {
    hits++;
    res.end('secret');
  });
  const fetcher = createWebFetcher();
  t.teardown(() => fetcher.close());
  t.is(await reason(fetcher.fetch(`http://127.0.0.1:${port}/`)), 'blocked_address');
  t.is(await reason(fetcher.fetch(`http://[::ffff:127.0.0.1]:${port}/`)), 'blocked_address');
  t.is(hits, 0);
});

test('a DNS name resolving to a private address is refused; the same name allowed by the operator is fetched', async (t) => {
  const port = await serve(t, (req, res) => res.end(`host=${req.headers.host}`));
  const lookup = tableLookup({ 'intranet.example': ['127.0.0.1'], 'mixed.example': ['93.184.216.34', '10.0.0.1'] });
  const blocked = createWebFetcher({ lookup });
  t.teardown(() => blocked.close());
  t.is(await reason(blocked.fetch(`http://intranet.example:${port}/`)), 'blocked_address');
  // One private address among public ones is enough to refuse.
  t.is(await reason(blocked.fetch(`http://mixed.example:${port}/`)), 'blocked_address');

  const allowed = createWebFetcher({ lookup, allow: HostAllowList.parse(['intranet.example']) });
  t.teardown(() => allowed.close());
  const res = await allowed.fetch(`http://intranet.example:${port}/`);
  // The socket went to the checked address while Host kept the name.
  t.is(res.body.toString(), `host=intranet.example:${port}`);
});

test('the name is resolved once per connection and the socket pinned to that address (no rebinding)', async (t) => {
  const port = await serve(t, (_req, res) => res.end('ok'));
  let n = 0;
  // A rebinding resolver: allowed answer first, a different one afterwards.
  const lookup: LookupAll = async () => [{ address: n++ === 0 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
  const fetcher = createWebFetcher({ lookup, allow: HostAllowList.parse(['127.0.0.0/8']) });
  const res = await fetcher.fetch(`http://rebind.example:${port}/a`);
  t.is(res.body.toString(), 'ok');
  t.is(n, 1);
  // A later connection resolves again and is checked against what it would dial: the
  // rebound private answer is refused, never dialled.
  await fetcher.close();
  const again = createWebFetcher({ lookup, allow: HostAllowList.parse(['127.0.0.0/8']) });
  t.teardown(() => again.close());
  t.is(await reason(again.fetch(`http://rebind.example:${port}/b`)), 'blocked_address');
  t.is(n, 2);
});

test('only http and https are fetched', async (t) => {
  const fetcher = createWebFetcher();
  t.teardown(() => fetcher.close());
  for (const u of ['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'data:text/plain,hi'])
    t.is(await reason(fetcher.fetch(u)), 'scheme', u);
});

test('a redirect to 127.0.0.1 is re-checked and refused; a redirect to another scheme too', async (t) => {
  let inner = 0;
  const target = await serve(t, (_req, res) => {
    inner++;
    res.end('internal');
  });
  const port = await serve(t, (req, res) => {
    const to = req.url === '/file' ? 'file:///etc/passwd' : `http://127.0.0.1:${target}/admin`;
    res.writeHead(302, { location: to }).end();
  });
  const lookup = tableLookup({ 'public.example': ['127.0.0.1'] });
  const fetcher = createWebFetcher({ lookup, allow: HostAllowList.parse(['public.example']) });
  t.teardown(() => fetcher.close());
  t.is(await reason(fetcher.fetch(`http://public.example:${port}/go`)), 'blocked_address');
  t.is(await reason(fetcher.fetch(`http://public.example:${port}/file`)), 'scheme');
  t.is(inner, 0);
});

test('redirects are capped, and a caller filter can refuse one', async (t) => {
  const port = await serve(t, (req, res) => {
    const n = Number(req.url?.slice(1)) || 0;
    res.writeHead(301, { location: `/${n + 1}` }).end();
  });
  const fetcher = createWebFetcher({ allow: HostAllowList.parse(['127.0.0.1']), maxRedirects: 3 });
  t.teardown(() => fetcher.close());
  t.is(await reason(fetcher.fetch(`http://127.0.0.1:${port}/0`)), 'redirect_limit');
  t.is(await reason(fetcher.fetch(`http://127.0.0.1:${port}/0`, { redirectFilter: (u) => !u.endsWith('/2') })), 'redirect_refused');
});

test('caller headers are not forwarded across origins', async (t) => {
  const seen: Record<string, string | undefined> = {};
  const other = await serve(t, (req, res) => {
    seen.otherAuth = req.headers.authorization;
    seen.otherCookie = req.headers.cookie;
    seen.otherAccept = req.headers.accept;
    res.end('other');
  });
  const port = await serve(t, (req, res) => {
    seen.firstAuth = req.headers.authorization;
    res.writeHead(302, { location: `http://localhost:${other}/` }).end();
  });
  const lookup = tableLookup({ localhost: ['127.0.0.1'] });
  const fetcher = createWebFetcher({ lookup, allow: HostAllowList.parse(['127.0.0.1']) });
  t.teardown(() => fetcher.close());
  const res = await fetcher.fetch(`http://127.0.0.1:${port}/`, { headers: { Authorization: 'Bearer s3cret', Cookie: 'a=b', Accept: 'text/html' } });
  t.is(res.body.toString(), 'other');
  t.is(seen.firstAuth, 'Bearer s3cret');
  t.is(seen.otherAuth, undefined);
  t.is(seen.otherCookie, undefined);
  t.is(seen.otherAccept, 'text/html');
  t.deepEqual(res.redirects, [`http://127.0.0.1:${port}/`]);
});

test('the body is capped while streaming (declared, undeclared and gzip-bombed)', async (t) => {
  const big = Buffer.alloc(64 * 1024, 'a');
  const port = await serve(t, (req, res) => {
    if (req.url === '/declared') return res.writeHead(200, { 'content-length': String(big.length) }).end(big);
    if (req.url === '/gzip') return res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(Buffer.alloc(10 * 1024 * 1024)));
    if (req.url === '/small') return res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync('hello'));
    res.writeHead(200);
    // Chunked, never ending by itself: the fetcher must stop reading.
    const timer = setInterval(() => res.write(big), 5);
    res.on('close', () => clearInterval(timer));
  });
  const fetcher = createWebFetcher({ allow: HostAllowList.parse(['127.0.0.1']), maxBytes: 32 * 1024 });
  t.teardown(() => fetcher.close());
  t.is(await reason(fetcher.fetch(`http://127.0.0.1:${port}/declared`)), 'too_large');
  t.is(await reason(fetcher.fetch(`http://127.0.0.1:${port}/stream`)), 'too_large');
  t.is(await reason(fetcher.fetch(`http://127.0.0.1:${port}/gzip`)), 'too_large');
  t.is((await fetcher.fetch(`http://127.0.0.1:${port}/small`)).body.toString(), 'hello');
});

test('a page that does not answer in time fails with timeout', async (t) => {
  const port = await serve(t, (_req, res) => {
    setTimeout(() => res.end('late'), 2000).unref();
  });
  const fetcher = createWebFetcher({ allow: HostAllowList.parse(['127.0.0.1']), timeoutMs: 200 });
  t.teardown(() => fetcher.close());
  t.is(await reason(fetcher.fetch(`http://127.0.0.1:${port}/`)), 'timeout');
});

test('https: the socket dials the checked address while SNI and the certificate check keep the host name', async (t) => {
  const ca = createCa();
  const leaf = ca.issue(['DNS:docs.test']);
  const server = https.createServer({ key: leaf.key, cert: leaf.cert }, (req, res) =>
    res.end(`sni=${(req.socket as import('node:tls').TLSSocket).servername} host=${req.headers.host}`),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const port = (server.address() as AddressInfo).port;
  const lookup = tableLookup({ 'docs.test': ['127.0.0.1'], 'wrong.test': ['127.0.0.1'] });
  const fetcher = createWebFetcher({ lookup, allow: HostAllowList.parse(['127.0.0.1']), ca: ca.cert });
  t.teardown(() => fetcher.close());
  t.is((await fetcher.fetch(`https://docs.test:${port}/`)).body.toString(), `sni=docs.test host=docs.test:${port}`);
  // The same address under a name the certificate does not carry fails verification.
  t.is(await reason(fetcher.fetch(`https://wrong.test:${port}/`)), 'network');
});
