/**
 * The dashboard in a real headless Chromium against the real server (Elasticsearch,
 * FerretDB, the in-process worker, a local Git server). One walk through every page, in
 * order, as an administrator on a fresh install would take it. Screenshots go to
 * /tmp/dashboard-shots (not committed).
 */
import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { launchBrowser, startLiveServer, type LiveBrowser, type LiveServer } from './browser';
import { startWebSite, type WebSite } from '../web-site';

// Browser globals used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
interface BrowserElement {
  closest(selector: string): unknown;
}
declare const document: { activeElement: BrowserElement | null };
declare const location: { hash: string };
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare function getComputedStyle(element: BrowserElement): { outlineStyle: string };

let git: GitServer;
let site: WebSite;
let server: LiveServer;
let web: LiveBrowser;
let page: Page;
let url: string;
const NEW_USERNAME = 'librarian';
const NEW_PASSWORD = 'correct horse battery staple';

const GUIDE = `# Widgets guide

Widgets are small reusable parts for web pages.

## Creating a widget

Call \`createWidget()\` with a name to make a new widget:

\`\`\`js
import { createWidget } from 'widgets';
const w = createWidget('spinner', { size: 3 });
w.start();
\`\`\`

## Deleting a widget

Use \`w.destroy()\` to free its resources when it is no longer needed.

\`\`\`js
w.destroy();
console.log(w.destroyed); // true
\`\`\`
`;

const OPENAPI = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Petstore Lite', version: '1.0.0', description: 'A tiny pet store API.' },
  paths: {
    '/pets': {
      get: {
        summary: 'List pets',
        operationId: 'listPets',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
        responses: { '200': { description: 'A list of pets.' } },
      },
      post: {
        summary: 'Create a pet',
        operationId: 'createPet',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } }, example: { name: 'Rex' } } } },
        responses: { '201': { description: 'Created.' } },
      },
    },
  },
});

/** fetch against the live server (outside the browser). */
async function api(pathname: string, init: RequestInit & { key?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('Authorization', `Bearer ${init.key}`);
  const res = await fetch(`${url}${pathname}`, { ...init, headers });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a text answer
  }
  return { status: res.status, body: body as Record<string, unknown> };
}

async function go(hash: string) {
  await page.goto(`${url}/dashboard/#${hash}`);
  await page.locator('main h1').first().waitFor();
}

async function heading() {
  return (await page.locator('main h1').first().textContent())?.trim();
}

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/widgets', [
    {
      files: {
        'README.md': '# Widgets\n\nA widget toolkit for the web.\n\n## Install\n\nInstall it from npm and import what you need.\n',
        'docs/guide.md': GUIDE,
        'docs/api.md': '# API\n\n## widget.start()\n\nStarts the widget animation loop and keeps it running.\n\n```ts\nstart(): void\n```\n',
      },
      tag: 'v1.0.0',
    },
  ]);
  site = await startWebSite({
    files: {
      '/robots.txt': 'User-agent: *\nDisallow: /gadgets/secret.html\n',
      '/gadgets/index.html':
        '<!doctype html><html><head><title>Gadgets</title></head><body><main><h1>Gadgets</h1><p>Gadgets are tools.</p><a href="use.md">use</a> <a href="gone.html">gone</a> <a href="secret.html">secret</a></main></body></html>',
      '/gadgets/use.md': '# Using gadgets\n\nCall `gadget.use()` to use one.\n\n```js\ngadget.use({ speed: 2 });\n```\n',
    },
  });
  server = await startLiveServer({
    WEB_ALLOWED_HOSTS: '127.0.0.1',
    WEB_CRAWL_DELAY_MS: '0',
    GITHUB_BASE_URL: git.url,
    GIT_ALLOWED_URL_PREFIXES: `${git.url}/`,
    RATE_LIMIT_ANON_PER_MINUTE: '1000',
    RATE_LIMIT_KEY_PER_MINUTE: '1000',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
  });
  url = server.url;
  web = await launchBrowser();
  page = web.page;
});

test.afterEach.always(async (t) => {
  if (!t.passed && web)
    await web
      .shot(
        `failed-${t.title
          .replace(/^.*hook for /, '')
          .slice(0, 40)
          .replace(/[^a-z0-9]+/gi, '-')}`,
      )
      .catch(() => undefined);
});

test.after.always(async () => {
  await web?.close();
  await server?.close();
  await git?.close();
  await site?.close();
});

test.serial('the first load is small, and the sign-in page is served with a strict CSP', async (t) => {
  let bytes = 0;
  const files: string[] = [];
  const onResponse = async (res: import('playwright-core').Response) => {
    if (!res.url().includes('/dashboard/')) return;
    const body = await res.body().catch(() => Buffer.alloc(0));
    bytes += body.length;
    files.push(new URL(res.url()).pathname);
  };
  page.on('response', onResponse);
  const res = await page.goto(`${url}/dashboard/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  t.log(`first load: ${files.length} files, ${bytes} bytes: ${files.join(' ')}`);
  t.true(bytes < 100 * 1024);
  t.regex(res?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
  t.true(page.url().endsWith('#/login'));
  t.true(await page.locator('#nav').isHidden(), 'no navigation before signing in');
  t.true(await page.getByLabel('Username').evaluate((el) => el === document.activeElement), 'the first field has focus');
  // Keyboard focus is always visible.
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => (document.activeElement ? getComputedStyle(document.activeElement).outlineStyle : 'none'));
  t.not(outline, 'none');
  await web.shot('01-login');
});

test.serial('signing in with the default credentials forces their change before anything else', async (t) => {
  const wrong = page.getByLabel('Username');
  await wrong.fill('admin');
  await page.getByLabel('Password').fill('nope');
  await page.getByLabel('Password').press('Enter');
  await page.getByRole('alert').filter({ hasText: /./ }).first().waitFor();
  t.regex((await page.getByRole('alert').first().textContent()) ?? '', /invalid|wrong|incorrect/i);

  await page.getByLabel('Password').fill('admin');
  await page.getByLabel('Password').press('Enter'); // forms submit with Enter
  await page.getByRole('heading', { name: 'Change your credentials' }).waitFor();
  t.true(await page.locator('#nav').isHidden());
  await web.shot('02-change-credentials');

  // Nothing else: other pages lead back here, and the API refuses the session.
  await page.evaluate(() => (location.hash = '#/keys'));
  await page.waitForFunction(() => location.hash === '#/change-credentials');
  const status = await page.evaluate(async () => (await fetch('/v2/admin/keys')).status);
  t.is(status, 403);

  await page.getByLabel('Current password').fill('admin');
  await page.getByLabel('New username').fill(NEW_USERNAME);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change credentials' }).click();
  await page.getByRole('heading', { name: 'Libraries' }).waitFor();
  t.true(await page.locator('#nav').isVisible());
  t.regex((await page.locator('#who-name').textContent()) ?? '', new RegExp(NEW_USERNAME));
  t.regex((await page.locator('#flash').textContent()) ?? '', /credentials were changed/);
});

test.serial('API keys: created and shown once, usable, then deleted and refused', async (t) => {
  await go('/keys');
  t.is(await heading(), 'API keys');
  await page.getByLabel('Name').fill('ci pipeline');
  await page.getByLabel('Name').press('Enter');
  const valueBox = page.locator('#new-key-value');
  await valueBox.waitFor();
  const value = await valueBox.inputValue();
  t.regex(value, /^smk_[A-Za-z0-9_-]{20,}$/);
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  t.is(await page.evaluate(() => navigator.clipboard.readText()), value);
  await page.getByRole('cell', { name: 'ci pipeline', exact: true }).waitFor();
  await web.shot('03-keys-created');

  // The key works against the API…
  t.is((await api('/v2/jobs', { key: value })).status, 200);
  t.is((await api('/v2/auth/me', { key: value })).status, 200);
  t.is((await api('/v2/admin/keys', { key: value })).status, 403, 'keys are managed in the dashboard, not with a key');

  // …and its value is never shown again.
  await page.reload();
  await page.getByRole('cell', { name: 'ci pipeline', exact: true }).waitFor();
  t.false((await page.content()).includes(value));
  t.is(await page.locator('#new-key-value').count(), 0);
  const listed = await page.evaluate(async () => (await fetch('/v2/admin/keys')).text());
  t.false(listed.includes(value));

  // Delete: a confirmation that says it cannot be undone; Esc cancels it.
  await page.getByRole('button', { name: 'Delete key ci pipeline' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  t.regex((await dialog.textContent()) ?? '', /cannot be undone/);
  await web.shot('04-keys-delete-confirm');
  // Focus stays inside the modal dialog.
  for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
  t.true(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog'))));
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  t.is((await api('/v2/jobs', { key: value })).status, 200, 'cancelled: the key still works');

  await page.getByRole('button', { name: 'Delete key ci pipeline' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete key' }).click();
  await page.getByText('No API keys yet').waitFor();
  const refused = await api('/v2/jobs', { key: value });
  t.is(refused.status, 401);
  t.is(refused.body.error, 'invalid_api_key');
});

let jobId = '';

test.serial('adding a repository from the local Git server follows its job to the end', async (t) => {
  await go('/add');
  await page.getByLabel('Host').selectOption('github');
  await page.getByLabel('Repository URL').fill(`${git.url}/acme/widgets`);
  await page.getByRole('button', { name: 'Add repository' }).click();
  const done = page.locator('.alert.ok', { hasText: 'Open /acme/widgets' });
  await done.waitFor({ timeout: 180_000 });
  const jobLink = page.locator('a[href^="#/jobs/"]').first();
  t.true(await jobLink.isVisible(), 'the page showed the job while it ran');
  jobId = decodeURIComponent(((await jobLink.getAttribute('href')) ?? '').replace('#/jobs/', ''));
  t.truthy(jobId);
  await web.shot('05-add-repo-done');

  await jobLink.click();
  await page.locator('[data-state="finalized"]').waitFor();
  t.regex((await heading()) ?? '', /\/acme\/widgets/);
  t.true((await page.locator('.log li').count()) > 0, 'the job log is shown');
  await web.shot('06-job');
});

test.serial('the libraries list and the library page show state, versions, counts and jobs', async (t) => {
  await go('/libraries');
  const row = page.getByRole('row', { name: /acme\/widgets/ });
  await row.waitFor();
  t.regex((await row.textContent()) ?? '', /finalized/);
  await page.getByLabel('Filter').fill('no-such-library');
  await page.getByText('No library matches these filters.').waitFor();
  await page.getByLabel('Filter').fill('widg');
  await row.waitFor();
  await web.shot('07-libraries');

  await row.getByRole('link').first().click();
  await page.getByRole('heading', { name: 'Versions' }).waitFor();
  t.true(page.url().endsWith('#/library/acme/widgets'));
  const versions = page.locator('table').first();
  t.regex((await versions.textContent()) ?? '', /latest/);
  t.regex((await page.locator('dl.facts').textContent()) ?? '', /Benchmark score/);
  // The API reports why the score is what it is, and the versions table shows it.
  const built = (await page.evaluate(async () => (await fetch('/v2/libraries/acme/widgets')).json())) as {
    builds?: { qualityIssues?: { issue: string; snippets: number }[] }[];
  };
  const issues: { issue: string; snippets: number }[] = built.builds?.[0]?.qualityIssues ?? [];
  t.true(issues.length > 0, JSON.stringify(built.builds));
  t.is(
    await versions.locator('.quality-notes').first().textContent(),
    issues
      .slice(0, 4)
      .map((q) => `${q.issue}: ${q.snippets}`)
      .join(' · '),
  );
  t.true((await page.getByRole('link', { name: jobId.slice(0, 12) }).count()) > 0, 'the recent jobs include the add job');
  await web.shot('08-library');
});

test.serial('refresh from the library page opens the new job, polled until it ends', async (t) => {
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.waitForFunction((old) => location.hash.startsWith('#/jobs/') && !location.hash.endsWith(encodeURIComponent(old)), jobId, { timeout: 60_000 });
  const seen = new Set<string>();
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const state = await page
      .locator('[data-state]')
      .getAttribute('data-state')
      .catch(() => null);
    if (state) seen.add(state);
    if (state === 'finalized' || state === 'failed') break;
    await page.waitForTimeout(200);
  }
  t.log(`states seen: ${[...seen].join(' → ')}`);
  if (!seen.has('finalized')) {
    // Say why, from the job itself (its error and the end of its log).
    const id = decodeURIComponent(new URL(page.url()).hash.replace('#/jobs/', ''));
    const job = await server.test.services.jobs.get(id);
    t.log(
      `job ${id}: ${job?.errorCode ?? ''} ${job?.error ?? ''}; log: ${(job?.log ?? [])
        .slice(-5)
        .map((l) => l.message)
        .join(' | ')}`,
    );
  }
  t.true(seen.has('finalized'));
  t.true(await page.getByRole('button', { name: 'Cancel job' }).isHidden());
});

test.serial('a job page updates itself while the job waits and runs, and a queued job can be cancelled', async (t) => {
  const worker = server.test.lifecycle.worker;
  if (!worker) return t.fail('no in-process worker');
  const states = async (until: string[]) => {
    const seen: string[] = [];
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const state = await page
        .locator('[data-state]')
        .getAttribute('data-state')
        .catch(() => null);
      if (state && seen.at(-1) !== state) seen.push(state);
      if (state && until.includes(state)) break;
      await page.waitForTimeout(100);
    }
    return seen;
  };

  // With the worker paused the job stays queued: the page shows it, then follows it to the end.
  await worker.stop();
  await go('/library/acme/widgets');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.waitForFunction(() => location.hash.startsWith('#/jobs/'), undefined, { timeout: 60_000 });
  await page.locator('[data-state="queued"]').waitFor();
  t.true(await page.getByRole('button', { name: 'Cancel job' }).isVisible());
  await web.shot('06b-job-queued');
  worker.start();
  const seen = await states(['finalized', 'failed']);
  t.log(`states seen without reloading: ${seen.join(' → ')}`);
  t.is(seen[0], 'queued');
  t.is(seen.at(-1), 'finalized');

  // Cancelled while queued.
  await worker.stop();
  await go('/library/acme/widgets');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.waitForFunction(() => location.hash.startsWith('#/jobs/'), undefined, { timeout: 60_000 });
  await page.locator('[data-state="queued"]').waitFor();
  await page.getByRole('button', { name: 'Cancel job' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel job' }).click();
  await page.locator('[data-state="cancelled"]').waitFor();
  t.true(await page.getByRole('button', { name: 'Cancel job' }).isHidden());
  worker.start();
});

test.serial('the playground resolves a library and shows both formats with sources', async (t) => {
  await go('/playground?library=/acme/widgets');
  await page.getByLabel('Library name').fill('widgets');
  await page.getByLabel('Library name').press('Enter');
  await page.getByRole('cell', { name: '/acme/widgets' }).waitFor();

  t.is(await page.getByLabel('Library', { exact: true }).inputValue(), '/acme/widgets');
  await page.getByLabel('Version', { exact: true }).selectOption('latest');
  await page.getByLabel('Question').fill('how do I create a widget?');
  await page.getByLabel('Question').press('Enter');
  const answer = page.getByRole('region', { name: /^Answer for/ });
  await answer.waitFor();
  const cards = answer.locator('article.snippet');
  t.true((await cards.count()) > 0);
  t.regex((await answer.textContent()) ?? '', /createWidget/);
  const source = cards.first().locator('a[href^="http"]');
  t.regex((await source.getAttribute('href')) ?? '', /acme\/widgets/);
  await web.shot('09-playground-snippets');

  await page.getByRole('tab', { name: 'MCP tool text (query-docs)' }).click();
  await page.locator('[id^="pg-view-txt"] pre').filter({ hasText: '### ' }).waitFor(); // fetched when the tab opens
  const txt = (await page.locator('[id^="pg-view-txt"] pre').textContent()) ?? '';
  t.regex(txt, /### /);
  t.regex(txt, /Source: /);
  await web.shot('10-playground-txt');
  await page.getByRole('tab', { name: 'JSON (type=json)' }).click();
  const json = JSON.parse((await page.locator('[id^="pg-view-json"] pre').textContent()) ?? '{}') as { codeSnippets: unknown[]; snippets: unknown[] };
  t.true(json.codeSnippets.length > 0);
  t.true(json.snippets.length > 0);
});

test.serial('a website is crawled from the add page; its job and library pages show the crawl report', async (t) => {
  await go('/add');
  await page.getByLabel('What are the docs?').selectOption('website');
  await page.getByLabel('Start URL').fill(`${site.origin}/gadgets/`);
  await page.getByLabel('Most pages').fill('10');
  await page.getByRole('button', { name: 'Crawl website' }).click();
  const done = page.locator('.alert.ok', { hasText: `Open /websites/127.0.0.1-${site.port}_gadgets` });
  await done.waitFor({ timeout: 60_000 });
  await web.shot('13b-website-crawled');
  // The job page lists what was skipped and why.
  await page.locator('form[aria-labelledby="add-website-title"] a.mono').first().click();
  const report = page.getByRole('region', { name: 'Crawl report' });
  await report.waitFor();
  t.regex((await report.textContent()) ?? '', /refused by robots\.txt/);
  t.regex((await report.textContent()) ?? '', /HTTP error status/);
  t.true((await report.getByText(`${site.origin}/gadgets/gone.html`).count()) > 0);
  // The library page says where it came from, with the latest report.
  await go(`/library/websites/127.0.0.1-${site.port}_gadgets`);
  await page.getByRole('region', { name: 'Latest crawl report' }).waitFor();
  t.regex((await page.locator('dl.facts').textContent()) ?? '', /website \(crawled\)/);
  t.regex((await page.locator('dl.facts').textContent()) ?? '', /scope subpages/);
});

test.serial("a library's sources: the website is merged into the repository's library from its page, and its own page says so", async (t) => {
  const websiteId = `/websites/127.0.0.1-${site.port}_gadgets`;
  await go('/library/acme/widgets');
  await page.getByRole('heading', { name: 'Sources' }).waitFor();
  await page.getByLabel('Library id').fill(websiteId);
  await page.getByRole('button', { name: 'Merge in' }).click();
  await page.locator('#flash', { hasText: `${websiteId} is now a source of /acme/widgets` }).waitFor();
  const row = page.getByRole('row', { name: new RegExp(websiteId.replace(/[.]/g, '\\.')) });
  t.regex((await row.textContent()) ?? '', /merged \(joins latest\)/);
  await web.shot('13c-library-sources');
  t.is((await api('/v2/libraries/acme/widgets/sources')).status, 401, 'the sources route needs a key or a session, like the library');
  await go(`/library${websiteId}`);
  await page.getByText('This library is a source of').waitFor();
  t.is(await page.getByRole('button', { name: 'Merge in' }).count(), 0, 'a source is not offered a merge of its own');
});

test.serial('permissions: an operation allowed without authentication, then taken back', async (t) => {
  t.is((await api('/v2/jobs')).status, 401);
  await go('/permissions');
  const jobs = page.getByRole('checkbox', { name: /Read indexing jobs/ });
  t.false(await jobs.isChecked(), 'all off by default');
  await jobs.check();
  await page.getByRole('button', { name: 'Save permissions' }).click();
  await page.getByText('Permissions saved.').waitFor();
  await web.shot('11-permissions');
  await t.notThrowsAsync(async () => {
    const deadline = Date.now() + 5000; // the settings are cached for a moment
    while ((await api('/v2/jobs')).status !== 200) {
      if (Date.now() > deadline) throw new Error('anonymous GET /v2/jobs still refused');
      await new Promise((r) => setTimeout(r, 250));
    }
  });
  await page.reload();
  await jobs.waitFor();
  t.true(await jobs.isChecked());
  await jobs.uncheck();
  await page.getByRole('button', { name: 'Save permissions' }).click();
  await page.getByText('Permissions saved.').waitFor();
});

test.serial('policies: the team policy is edited with the /v2/policies fields', async (t) => {
  await go('/policies');
  await page.getByLabel('Minimum trust score').fill('2');
  await page.getByRole('checkbox', { name: 'GitHub' }).check();
  await page.getByRole('checkbox', { name: 'OpenAPI' }).check();
  await page.getByLabel('Blocked libraries').fill('/evil/lib\n/other/bad');
  await web.shot('12-policies');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await page.getByText('Policy saved.').waitFor();
  const saved = await page.evaluate(
    async () => (await fetch('/v2/policies')).json() as Promise<{ libraryFilters: { sourceTypes: string[] } & Record<string, unknown> }>,
  );
  t.like(saved.libraryFilters, { mode: 'quality', minTrustScore: 2, blockedLibraries: ['/evil/lib', '/other/bad'] });
  t.deepEqual([...saved.libraryFilters.sourceTypes].sort(), ['github', 'openapi']);

  await page.getByLabel('Select').check();
  t.true(await page.getByLabel('Allowed libraries').isVisible());
  t.true(await page.getByLabel('Minimum trust score').isHidden());
  await page.getByLabel('Quality').check();
});

test.serial('an OpenAPI file is uploaded from the add page', async (t) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-oas-')), 'petstore.json');
  fs.writeFileSync(file, OPENAPI);
  await go('/add?kind=openapi');
  await page.getByLabel('Specification file').setInputFiles(file);
  await page.getByLabel('Library title').fill('Petstore Lite');
  await page.getByLabel('Description', { exact: true }).fill('Pets, as an API.');
  await page.getByRole('button', { name: 'Upload specification' }).click();
  await page.locator('.alert.ok', { hasText: 'Open /openapi/petstore-lite' }).waitFor({ timeout: 60_000 });
  await web.shot('13-openapi-uploaded');
  // Again without "replace": refused as a duplicate, with the API's message.
  await page.getByRole('button', { name: 'Upload specification' }).click();
  const refused = page.locator('.alert.error', { hasText: 'already exists' });
  await refused.waitFor();
  t.is(await refused.getAttribute('data-code'), 'duplicate_repo', 'the code is kept for support, not shown as text');
  t.notRegex((await refused.textContent()) ?? '', /duplicate_repo/);
  await page.getByLabel('Replace an existing library with the same id').check();
  await page.getByRole('button', { name: 'Upload specification' }).click();
  await page.locator('.alert.ok', { hasText: 'Open /openapi/petstore-lite' }).waitFor({ timeout: 60_000 });
});

test.serial('usage shows requests and tokens per day per channel, and top libraries, as charts', async (t) => {
  await server.test.services.usage.flush();
  await go('/usage?range=7d'); // (a new install's own range shows hours: connect-manage.test.ts)
  await page.getByRole('heading', { name: 'Requests per day, by channel' }).waitFor();
  const bars = page.locator('svg.chart[aria-label="Requests per day by channel"] rect');
  t.true((await bars.count()) > 0, 'the playground requests are counted');
  t.true((await page.locator('svg.chart[aria-label="Tokens served per day"] polyline').count()) === 1);
  t.true((await page.locator('svg.chart[aria-label="Top libraries by requests"]').textContent())?.includes('/acme/widgets'));
  await page.getByLabel('Library', { exact: true }).selectOption('/acme/widgets');
  await page.getByRole('cell', { name: 'how do I create a widget?' }).waitFor();
  await web.shot('14-usage');
});

test.serial('teams: users, a team with a plan, members and their roles', async (t) => {
  await go('/teams');
  t.is(await heading(), 'Teams and users');
  await page.getByLabel('Username').fill('dev1');
  await page.getByLabel('Initial password').fill('initial-password-1');
  await page.getByRole('button', { name: 'Create user' }).click();
  await page.getByRole('cell', { name: /^dev1/ }).waitFor();

  await page.getByRole('form', { name: 'New team' }).getByLabel('Name').fill('Docs team');
  await page.getByRole('form', { name: 'New team' }).getByLabel('Plan').selectOption('pro');
  await page.getByRole('button', { name: 'Create team' }).click();
  await page.getByRole('heading', { name: 'Team Docs team' }).waitFor();
  await page.getByRole('form', { name: 'Add a member' }).getByLabel('Username').fill('dev1');
  await page.getByRole('button', { name: 'Add member' }).click();
  const role = page.getByLabel('Team role of dev1');
  await role.waitFor();
  await role.selectOption('owner');
  await page.getByText('dev1 is now owner of Docs team.').waitFor();
  await web.shot('15-team');
  const team = await page.evaluate(
    async () => (await fetch('/v2/admin/teams')).json() as Promise<{ teams: Array<{ id: string; name: string; plan: string }> }>,
  );
  const docs = team.teams.find((x) => x.name === 'Docs team');
  if (!docs) return t.fail('the team is not listed');
  t.is(docs.plan, 'pro');
  const detail = await page.evaluate(
    async (id) => (await fetch(`/v2/admin/teams/${id}`)).json() as Promise<{ members: Array<{ username: string; role: string }> }>,
    docs.id,
  );
  t.like(
    detail.members.find((m) => m.username === 'dev1'),
    { role: 'owner' },
  );

  await go('/teams');
  await page.getByRole('link', { name: 'Docs team' }).waitFor();
  await web.shot('16-teams');
});

test.serial('credentials: hosting tokens are stored but never shown; the password changes', async (t) => {
  await go('/credentials');
  const secret = 'ghp_dashboardTestToken1234567890';
  const github = page.getByRole('form', { name: 'GitHub connection' });
  await github.getByLabel('Access token').fill(secret);
  t.is(await github.getByLabel('Access token').getAttribute('type'), 'password');
  await github.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('form', { name: 'GitHub connection' }).getByText('connected', { exact: true }).waitFor();
  t.false((await page.content()).includes(secret));
  const listed = await page.evaluate(async () => (await fetch('/v2/admin/credentials')).text());
  t.false(listed.includes(secret));
  await web.shot('17-credentials');

  await page.getByRole('form', { name: 'GitHub connection' }).getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('form', { name: 'GitHub connection' }).getByText('not connected').waitFor();

  const form = page.getByRole('form', { name: 'Password' });
  await form.getByLabel('Current password').fill(NEW_PASSWORD);
  await form.getByLabel('New password', { exact: true }).fill(`${NEW_PASSWORD}!`);
  await form.getByLabel('Repeat the new password').fill(`${NEW_PASSWORD}!`);
  await form.getByRole('button', { name: 'Change password' }).click();
  await page.getByText('Your password was changed.').waitFor();
});

test.serial('the library is deleted after a confirmation; signing out ends the session', async (t) => {
  await go('/library/openapi/petstore-lite');
  await page.getByRole('heading', { name: 'Versions' }).waitFor();
  await page.getByRole('button', { name: 'Delete' }).click();
  t.regex((await page.getByRole('dialog').textContent()) ?? '', /cannot be undone/);
  await page.getByRole('dialog').getByRole('button', { name: 'Delete library' }).click();
  await page.getByRole('heading', { name: 'Libraries' }).waitFor();
  t.regex((await page.locator('#flash').textContent()) ?? '', /petstore-lite was deleted/);
  t.is(await page.evaluate(async () => (await fetch('/v2/libraries/openapi/petstore-lite')).status), 404);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  t.is(await page.evaluate(async () => (await fetch('/v2/auth/me')).status), 401);
  // The new credentials work; the old default ones do not.
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('admin');
  await page.getByLabel('Password').press('Enter');
  await page.getByRole('alert').filter({ hasText: /./ }).first().waitFor();
  await page.getByLabel('Username').fill(NEW_USERNAME);
  await page.getByLabel('Password').fill(`${NEW_PASSWORD}!`);
  await page.getByLabel('Password').press('Enter');
  await page.getByRole('heading', { name: 'Libraries' }).waitFor();
});

test.serial('a member changes the initial password first and is not offered the admin pages', async (t) => {
  const context = await web.browser.newContext({ viewport: { width: 1366, height: 768 } });
  const member = await context.newPage();
  member.on('pageerror', (error) => web.problems.push(`member pageerror: ${error.message}`));
  try {
    await member.goto(`${url}/dashboard/#/keys`);
    await member.getByLabel('Username').fill('dev1');
    await member.getByLabel('Password').fill('initial-password-1');
    await member.getByLabel('Password').press('Enter');
    await member.getByRole('heading', { name: 'Change your credentials' }).waitFor();
    await member.getByLabel('Current password').fill('initial-password-1');
    await member.getByLabel('New password', { exact: true }).fill('member-password-2');
    await member.getByLabel('Repeat the new password').fill('member-password-3');
    await member.getByRole('button', { name: 'Change credentials' }).click();
    await member.getByText('The two new passwords differ.').waitFor();
    await member.getByLabel('Repeat the new password').fill('member-password-2');
    await member.getByRole('button', { name: 'Change credentials' }).click();
    await member.getByRole('heading', { name: 'Libraries' }).waitFor();
    t.regex((await member.locator('#who-name').textContent()) ?? '', /dev1 \(member\)/);
    t.true(await member.getByRole('link', { name: 'API keys' }).isVisible());
    t.true(await member.getByRole('link', { name: 'Permissions' }).isHidden());
    t.true(await member.getByRole('link', { name: 'Usage' }).isHidden());
    // The member owns "Docs team": its page lets them manage members but not the plan.
    await member.goto(`${url}/dashboard/#/teams`);
    await member.getByRole('link', { name: 'Docs team' }).click();
    await member.getByRole('heading', { name: 'Team Docs team' }).waitFor();
    t.true(await member.getByLabel('Plan').isDisabled());
    t.true(await member.getByRole('button', { name: 'Add member' }).isVisible());
    await member.screenshot({ path: '/tmp/dashboard-shots/18-member-team.png', fullPage: true });
  } finally {
    await context.close();
  }
});

test.serial('no script errors or CSP violations on any page', (t) => {
  t.deepEqual(web.problems, []);
});
