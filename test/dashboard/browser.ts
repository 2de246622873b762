/**
 * Browser-test helpers: the real server (createTestApp) listening on an ephemeral loopback
 * port, and Debian's Chromium driven by playwright-core (headless, as root, without any
 * background networking: this machine's network is closed).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../harness';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SHOTS_DIR = process.env.DASHBOARD_SHOTS_DIR ?? '/tmp/dashboard-shots';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LiveServer {
  test: TestApp;
  url: string;
  /** The HTTP server (tests count the requests that reach it). */
  server: http.Server;
  close(): Promise<void>;
}

/** createTestApp + the in-process worker + an HTTP server on 127.0.0.1:<ephemeral>. */
export async function startLiveServer(overrides: Record<string, string> = {}): Promise<LiveServer> {
  const testApp = await createTestApp(overrides);
  testApp.lifecycle.startWorker();
  const server = http.createServer(testApp.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    test: testApp,
    url: `http://127.0.0.1:${port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await testApp.close();
    },
  };
}

export interface LiveBrowser {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors other than failed-resource noise. */
  problems: string[];
  /** Saves a full-page screenshot as <SHOTS_DIR>/<name>.png. */
  shot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Launches Chromium (a fresh profile each time) with one page at a laptop-sized viewport. */
export async function launchBrowser(options: { viewport?: { width: number; height: number } } = {}): Promise<LiveBrowser> {
  // Playwright gives launch() a fresh temporary profile (--user-data-dir) of its own.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1366, height: 768 },
    locale: 'en-US',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // A failed API call (401 before sign-in, a 404 the page handles) is logged by the browser itself.
    if (/Failed to load resource/.test(text)) return;
    problems.push(`console: ${text}`);
  });
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  return {
    browser,
    context,
    page,
    problems,
    async shot(name) {
      const file = path.join(SHOTS_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await browser.close();
    },
  };
}
