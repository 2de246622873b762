/**
 * `npx tsx scripts/bench/dashboard-weight.ts`: the dashboard's first load in Debian's Chromium,
 * as a new visitor gets it: files, bytes before and after compression, time until the
 * sign-in form shows, and what a reload asks of the server. Serves only the static files
 * and the compression middleware (no stores needed; /v2/auth/me answers 401 as it does
 * before sign-in). Figures depend on the machine's load: compare runs on one machine.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { chromium } from 'playwright-core';
import { dashboardStatic } from '../../src/dashboard/static';
import { compression } from '../../src/http/middlewares/compression';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function main(): Promise<void> {
  const app = new Koa();
  app.use(compression());
  app.use(dashboardStatic());
  app.use((ctx) => {
    ctx.status = ctx.path === '/v2/auth/me' ? 401 : 404;
    ctx.body = { error: ctx.status === 401 ? 'invalid_api_key' : 'not_found', message: 'Sign in first.' };
  });
  const hits: string[] = [];
  const server = http.createServer(app.callback());
  server.on('request', (req) => hits.push(req.url ?? ''));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dashboard/`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const sizes = new Map<string, { url: string; encoded: number; decoded: number }>();
    cdp.on('Network.responseReceived', (e) => sizes.set(e.requestId, { url: e.response.url, encoded: 0, decoded: 0 }));
    cdp.on('Network.dataReceived', (e) => {
      const s = sizes.get(e.requestId);
      if (s) s.decoded += e.dataLength;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const s = sizes.get(e.requestId);
      if (s) s.encoded = e.encodedDataLength;
    });
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.context().clearCookies();
      await cdp.send('Network.clearBrowserCache');
      sizes.clear();
      const started = Date.now();
      await page.goto(url);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      runs.push(Date.now() - started);
      await page.waitForLoadState('networkidle');
    }
    const files = [...sizes.values()].filter((s) => s.url.includes('/dashboard/'));
    const encoded = files.reduce((n, f) => n + f.encoded, 0);
    const decoded = files.reduce((n, f) => n + f.decoded, 0);
    const start = hits.length;
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    const reload = hits.slice(start).filter((u) => u.startsWith('/dashboard'));
    runs.sort((a, b) => a - b);
    console.log(files.map((f) => `  ${new URL(f.url).pathname} ${f.decoded} → ${f.encoded}`).join('\n'));
    console.log(`first load: ${files.length} files, ${decoded} bytes, ${encoded} bytes on the wire (with headers)`);
    console.log(`time to the sign-in form (cold cache, 5 runs): median ${runs[2]} ms, min ${runs[0]} ms, max ${runs[4]} ms`);
    console.log(`reload: ${reload.length} dashboard request(s) reach the server: ${reload.join(' ')}`);
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
