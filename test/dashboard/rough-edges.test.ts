/**
 * The rough edges a first walk through the dashboard found (issue 19), each checked in a
 * real headless Chromium against the real server (Elasticsearch, FerretDB, the in-process
 * worker, a local Git server): jobs that keep focus and stop polling, honest progress
 * counts, failed adds (no unhandled rejection, the error once, the job removable), return
 * after a session ends with the input kept, host detection, the playground (rendered and
 * sanitized Markdown, the question in the URL, no arbitrary library, two versions side by
 * side), a 390 px phone, keys, plain-language errors and titles, compression and caching,
 * and an axe-core check of every page (0 serious or critical violations).
 * Screenshots go to /tmp/dashboard-shots (not committed).
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { makeUser, type TestUser } from '../auth/fixtures';
import { launchBrowser, startLiveServer, type LiveBrowser, type LiveServer } from './browser';
import { testJobParams } from '../helpers';

// Browser globals used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
interface El {
  tagName: string;
  __mark?: string;
}
declare const document: {
  activeElement: El | null;
  cookie: string;
  title: string;
  scrollingElement: { scrollWidth: number };
  querySelector(s: string): El | null;
};
declare const window: { __axe?: unknown };
declare const location: { hash: string };
declare function getComputedStyle(element: El): { outlineStyle: string };

let git: GitServer;
let server: LiveServer;
let web: LiveBrowser;
let page: Page;
let url: string;
let admin: TestUser;
const hits: string[] = [];

const AXE_SOURCE = fs.readFileSync(path.join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8');

// Markdown that must render (a list, inline code, a fenced block) and must not run.
const GUIDE = `# Gadgets guide

Gadgets are parts for dashboards.

## Making a gadget

Call \`makeGadget()\` to build one. It accepts:

- a \`name\` for the gadget
- a \`size\` from 1 to 5

\`\`\`js
import { makeGadget } from 'gadgets';
const g = makeGadget('dial', { size: 2 });
\`\`\`

<img src="x" onerror="window.__pwned = 1"> <script>window.__pwned = 2</script> [click](javascript:window.__pwned=3)
`;

async function go(hash: string) {
  await page.goto(`${url}/dashboard/#${hash}`);
  await page.locator('main h1').first().waitFor();
}

async function signIn(username: string, password: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
}

async function axe(name: string) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // evaluate runs outside the page's CSP, which would block an injected <script>.
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.before(async () => {
  git = await startGitServer();
  const zh = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`docs/zh/page${i}.md`, `# 页面 ${i}\n\n这是第 ${i} 页的内容，它很有用。\n`]));
  const old = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`versioned_docs/version-0.${i}/intro.md`, `# Old intro ${i}\n\nAn old page.\n`]));
  createRepo(git.root, 'acme/gadgets', [
    {
      files: { 'README.md': '# Gadgets\n\nGadgets for dashboards.\n', 'docs/guide.md': GUIDE.replace('makeGadget', 'buildGadget'), ...zh, ...old },
      tag: 'v1.0.0',
    },
    { files: { 'README.md': '# Gadgets\n\nGadgets for dashboards.\n', 'docs/guide.md': GUIDE, ...zh, ...old }, tag: 'v2.0.0' },
  ]);
  server = await startLiveServer({
    GITHUB_BASE_URL: git.url,
    GIT_ALLOWED_URL_PREFIXES: `${git.url}/`,
    RATE_LIMIT_ANON_PER_MINUTE: '1000',
    RATE_LIMIT_KEY_PER_MINUTE: '1000',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
  });
  url = server.url;
  server.server.on('request', (req) => hits.push(req.url ?? ''));
  admin = await makeUser(server.test, { role: 'admin', plan: 'pro', teamRole: 'owner' });
  web = await launchBrowser();
  page = web.page;
});

test.afterEach.always(async (t) => {
  if (!t.passed && web) await web.shot(`failed-rough-${t.title.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => undefined);
});

test.after.always(async () => {
  await web?.close();
  await server?.close();
  await git?.close();
});

test.serial('a failed sign-in says so in words, and the page title and heading focus are right', async (t) => {
  await go('/login');
  t.is(await page.evaluate(() => document.title), 'Sign in · Shelfmark');
  await signIn(admin.username, 'wrong password');
  const alert = page.locator('.alert.error');
  await alert.waitFor();
  const text = (await alert.textContent()) ?? '';
  t.regex(text, /Wrong username or password/);
  t.notRegex(text, /invalid_api_key/);
  await signIn(admin.username, admin.password);
  await page.getByRole('heading', { name: 'Libraries' }).waitFor();
  // An empty catalogue says how to add the first library.
  const steps = page.getByRole('region', { name: 'Add your first library' });
  await steps.waitFor();
  t.regex((await steps.textContent()) ?? '', /npm run load -- fixtures/);
  t.is(await steps.getByRole('link', { name: 'Add a Git repository' }).getAttribute('href'), '#/add');
  // The router focuses the heading for screen readers; no focus box is drawn on it.
  t.is(await page.evaluate(() => document.activeElement?.tagName), 'H1');
  t.is(await page.locator('main h1').evaluate((el) => getComputedStyle(el as unknown as El).outlineStyle), 'none');
  await go('/no-such-page');
  t.is(await page.evaluate(() => document.title), 'Not found · Shelfmark', 'the not-found page has its own title');
});

test.serial('the add form tells the host from the URL and lists the allowed URL prefixes', async (t) => {
  await go('/add');
  t.regex((await page.locator('form', { hasText: 'Git repository' }).textContent()) ?? '', new RegExp(`${git.url}/`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await page.getByLabel('Host').selectOption('gitlab');
  await page.reload();
  await page.getByLabel('Repository URL').waitFor();
  await page.getByLabel('Repository URL').fill(`${git.url}/acme/gadgets`);
  t.is(await page.getByLabel('Host').inputValue(), 'github', 'GITHUB_BASE_URL is the local Git server here');
  await page.getByLabel('Repository URL').fill('https://git.example.org/team/repo');
  t.is(await page.getByLabel('Host').inputValue(), 'git');
  t.regex((await page.locator('.hint[role="status"]').textContent()) ?? '', /from the URL/);
});

test.serial('a failed add: no unhandled rejection, the error shown once in words, and the job can be removed', async (t) => {
  const before = web.problems.length;
  await go('/add');
  await page.getByLabel('Repository URL').fill(`${git.url}/acme/missing`);
  await page.getByRole('button', { name: 'Add repository' }).click();
  const remove = page.getByRole('button', { name: 'Remove this failed job' });
  await remove.waitFor({ timeout: 60_000 });
  const form = page.locator('form', { hasText: 'Git repository' });
  t.is(await form.locator('.alert.error').count(), 1, 'the error is shown once');
  const text = (await form.textContent()) ?? '';
  t.regex(text, /Failed while cloning/);
  t.regex(text, /does not exist or is not reachable/);
  t.notRegex(text, /validation_error/);
  t.regex(text, /✗ cloning/, 'the failing stage is marked');
  t.is(await form.locator('.stage-bars li.failed').getAttribute('data-stage'), 'cloning', 'its bar too');
  t.is(await form.locator('.stage-bars li.skipped').count(), 2, 'parsing and indexing were not reached');
  await page.waitForTimeout(300);
  t.deepEqual(web.problems.slice(before), [], 'no unhandled rejection or console error');
  await remove.click();
  await page.getByText('The failed job was removed.').waitFor();
  const { jobs } = (await page.evaluate(async () => (await fetch('/v2/jobs')).json())) as { jobs: Array<{ libraryId: string }> };
  t.false(jobs.some((j) => j.libraryId === '/acme/missing'));
});

test.serial('a failed add is tried again with the same request: at once without a token, and a typed token is asked for again (never kept)', async (t) => {
  // Without a token: the repository appears after the first attempt failed; "Try again" makes the same add.
  await go('/add');
  await page.getByLabel('Repository URL').fill(`${git.url}/acme/later`);
  await page.getByLabel('Skip version filtering').check();
  await page.getByRole('button', { name: 'Add repository' }).click();
  const form = page.locator('form', { hasText: 'Git repository' });
  await form.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 60_000 });
  createRepo(git.root, 'acme/later', [{ files: { 'README.md': '# Later\n\nA library that arrived late.\n', 'docs/guide.md': GUIDE } }]);
  await page.getByLabel('Skip version filtering').uncheck(); // the retry uses the job's request, not the form's state
  await form.getByRole('button', { name: 'Try again' }).click();
  await page.locator('.alert.ok', { hasText: 'Open /acme/later' }).waitFor({ timeout: 90_000 });
  t.true(await page.getByLabel('Skip version filtering').isChecked(), 'the request was put back as made');
  const { jobs } = (await page.evaluate(async () => (await fetch('/v2/jobs?limit=20')).json())) as {
    jobs: Array<{ id: string; libraryId: string; kind: string; state: string }>;
  };
  const later = jobs.filter((j) => j.libraryId === '/acme/later');
  t.is(later.length, 2);
  t.deepEqual(later.map((j) => [j.kind, j.state]).sort(), [
    ['add-repo', 'failed'],
    ['add-repo', 'finalized'],
  ]);

  // With a typed token: the job's record keeps no token, and trying again asks for it.
  const secret = 'typed-secret-4242';
  await go('/add');
  await page.getByLabel('Repository URL').fill(`${git.url}/acme/hidden`);
  await page.getByLabel('Access token (optional)').fill(secret);
  await page.getByRole('button', { name: 'Add repository' }).click();
  await form.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 60_000 });
  const jobLink = form.locator('a.mono').first();
  const failedId = ((await jobLink.textContent()) ?? '').trim();
  const record = (await page.evaluate(async (id) => (await fetch(`/v2/jobs/${id}`)).text(), failedId)) as string;
  t.false(record.includes(secret), 'the token is not in the job');
  t.like(JSON.parse(record).retryAdd, { docsRepoUrl: `${git.url}/acme/hidden`, host: 'github', tokenGiven: true, private: false });
  await go(`/jobs/${failedId}`);
  await page.getByRole('button', { name: 'Try the add again' }).click();
  await page.getByRole('heading', { name: 'Add a library' }).waitFor();
  await page.getByText('enter it again').waitFor();
  t.is(await page.getByLabel('Repository URL').inputValue(), `${git.url}/acme/hidden`);
  t.is(await page.getByLabel('Access token (optional)').inputValue(), '');
  t.is(await page.evaluate(() => (document.activeElement as unknown as { name?: string } | null)?.name), 'gitToken', 'the token field has focus');
  await page.getByRole('button', { name: 'Add repository' }).click();
  t.true(
    await page.getByLabel('Access token (optional)').evaluate((el) => !(el as unknown as { validity: { valid: boolean } }).validity.valid),
    'the add is not sent without the token',
  );
  await page.getByLabel('Access token (optional)').fill(secret);
  await page.getByRole('button', { name: 'Add repository' }).click();
  await form.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 60_000 });
  const retriedId = ((await form.locator('a.mono').first().textContent()) ?? '').trim();
  t.not(retriedId, failedId, 'a new job');
  t.true(web.problems.every((p) => !p.includes(secret)));
  // Leave the catalogue as the later tests expect it (one library).
  const csrf = { 'X-CSRF-Token': (await page.evaluate(() => document.cookie.match(/shelfmark_csrf=([^;]+)/)?.[1])) ?? '' };
  for (const target of [...[failedId, retriedId, ...later.map((j) => j.id)].map((id) => `/v2/jobs/${id}`), '/v2/libraries/acme/later']) {
    t.is(await page.evaluate(async ([u, headers]) => (await fetch(u, { method: 'DELETE', headers })).status, [target, csrf] as const), 200, target);
  }
});

test.serial('progress counts files done against files to do; the files the filter left out are counted apart', async (t) => {
  await go('/add');
  await page.getByLabel('Repository URL').fill(`${git.url}/acme/gadgets`);
  await page.getByRole('button', { name: 'Add repository' }).click();
  await page.locator('.alert.ok', { hasText: 'Open /acme/gadgets' }).waitFor({ timeout: 90_000 });
  const summary = (await page.locator('form', { hasText: 'Git repository' }).textContent()) ?? '';
  const m = /([\d,]+) \/ ([\d,]+) files/.exec(summary);
  t.truthy(m, summary);
  const [done, total] = [Number(m![1].replace(/,/g, '')), Number(m![2].replace(/,/g, ''))];
  t.true(done <= total, `${done} / ${total}`);
  t.is(done, total);
  const skipped = Number(/([\d,]+) files left out/.exec(summary)?.[1].replace(/,/g, ''));
  t.true(skipped >= 12, `skipped ${skipped}`);
  t.true(total < skipped, 'the skipped files are not added to the done count');
});

test.serial('the jobs list keeps focus while it follows a running job, has filters, and stops polling when idle', async (t) => {
  const worker = server.test.lifecycle.worker;
  if (!worker) return t.fail('no in-process worker');
  await worker.stop();
  const job = await server.test.services.jobs.enqueue({
    kind: 'refresh',
    libraryId: '/acme/gadgets',
    version: 'latest',
    params: testJobParams(),
    teamId: null,
    createdBy: admin.userId,
  });
  try {
    await go('/jobs');
    await page.getByText('Following running jobs').waitFor();
    const link = page.locator(`a[href="#/jobs/${job._id}"]`);
    await link.focus();
    await link.evaluate((el) => ((el as unknown as El).__mark = 'kept'));
    const polls = hits.length;
    await page.waitForTimeout(4500);
    t.true(hits.slice(polls).filter((u) => u.startsWith('/v2/jobs')).length >= 2, 'it polls while a job is queued');
    t.is(await page.evaluate(() => document.activeElement?.__mark), 'kept', 'the same link keeps focus across updates');

    await page.getByLabel('State').selectOption('failed');
    t.is(await link.count(), 0);
    t.regex(page.url(), /state=failed/);
    await page.getByLabel('State').selectOption('running');
    await link.waitFor();
    await web.shot('20-jobs-running');

    await page.getByRole('button', { name: `Cancel job ${job._id.slice(0, 12)}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel job' }).click();
    await page.getByText('Nothing is running').waitFor();
    const idle = hits.length;
    await page.waitForTimeout(4500);
    t.is(hits.slice(idle).filter((u) => u.startsWith('/v2/jobs')).length, 0, 'no polling when nothing runs');
    await page.getByLabel('State').selectOption('');
    await page.getByRole('button', { name: `Remove job ${job._id.slice(0, 12)}` }).click();
    await page.getByText(/was removed from the list/).waitFor();
    t.is(await server.test.services.jobs.get(job._id), null);
  } finally {
    worker.start();
  }
});

test.serial('progress bars by stage: patched in place as a job moves through its stages, the failing stage marked, polling stops when it ends', async (t) => {
  const worker = server.test.lifecycle.worker;
  if (!worker) return t.fail('no in-process worker');
  await worker.stop();
  const jobs = server.test.services.jobs;
  const job = await jobs.enqueue({
    kind: 'refresh',
    libraryId: '/acme/gadgets',
    version: 'latest',
    params: testJobParams(),
    teamId: null,
    createdBy: admin.userId,
  });
  // The queue's own API, as a worker drives it: claim, report stages and progress, fail.
  const owner = 'test-owner';
  const claimed = await jobs.claim(owner, 60_000);
  const bar = (stage: string) => page.locator(`tr[data-id="${job._id}"] li[data-stage="${stage}"] progress`);
  const barValue = async (stage: string) => Number(await bar(stage).evaluate((el) => (el as unknown as { value: number }).value));
  try {
    t.is(claimed?._id, job._id);
    await jobs.update(job._id, owner, {
      state: 'parsing',
      progress: { filesTotal: 10, filesParsed: 4, filesSkipped: 2, filesReused: 0, snippets: 0, snippetsEmbedded: 0 },
    });
    await go('/jobs?state=running'); // (a new hash: the page may already show #/jobs)
    await page.getByText('Following running jobs').waitFor();
    const link = page.locator(`a[href="#/jobs/${job._id}"]`);
    await link.focus();
    await link.evaluate((el) => ((el as unknown as El).__mark = 'kept'));
    t.is(await barValue('cloning'), 1, 'cloning is done');
    t.is(await barValue('parsing'), 4);
    t.is(await bar('parsing').getAttribute('aria-label'), 'Parsing: 4 of 10 files');
    t.is(await bar('indexing').getAttribute('aria-label'), 'Indexing: waiting');

    await jobs.update(job._id, owner, {
      state: 'indexing',
      progress: { filesTotal: 10, filesParsed: 10, filesSkipped: 2, filesReused: 0, snippets: 80, snippetsIndexed: 20, snippetsEmbedded: 0 },
    });
    await page.waitForFunction(
      (id) => document.querySelector(`tr[data-id="${id}"] li[data-stage="indexing"] progress[aria-label="Indexing: 20 of 80 snippets"]`) !== null,
      job._id,
    );
    t.is(await barValue('parsing'), 10, 'parsing is full once done');
    t.is(await barValue('indexing'), 20);
    t.is(await page.evaluate(() => document.activeElement?.__mark), 'kept', 'focus stays on the same link while bars change');

    // The job's own page: a labelled bar per stage with words beside it.
    await go(`/jobs/${job._id}`);
    const bars = page.getByRole('list', { name: 'Progress by stage' });
    await bars.waitFor();
    t.regex((await bars.textContent()) ?? '', /Parsing.*done · 10 files.*Indexing.*20 of 80 snippets/);

    await jobs.finish(job._id, owner, 'failed', { error: 'The index refused the write.', errorCode: 'internal_error' });
    const failed = page.locator('.stage-bars li.failed');
    await failed.waitFor({ timeout: 10_000 });
    t.is(await failed.getAttribute('data-stage'), 'indexing', 'the failing stage is marked');
    t.regex((await failed.textContent()) ?? '', /✗ failed here · 20 of 80 snippets/);
    t.is(await page.locator('.stage-bars li.done').count(), 2);
    await web.shot('21-job-failed-stage-bars');
    const after = hits.length;
    await page.waitForTimeout(2500);
    t.is(hits.slice(after).filter((u) => u.startsWith('/v2/jobs')).length, 0, 'the job page stops polling once the job has ended');

    await go('/jobs?state=failed');
    await page.locator(`tr[data-id="${job._id}"] li.failed[data-stage="indexing"]`).waitFor();
    t.true((await page.getByText('Nothing is running').count()) > 0);
  } finally {
    // A job left running would keep its library's build slot from the next test.
    if ((await jobs.get(job._id))?.finishedAt == null) await jobs.finish(job._id, owner, 'cancelled', {}).catch(() => undefined);
    await jobs.remove(job._id).catch(() => undefined);
    worker.start();
  }
});

test.serial("an ended job's page runs it again (a new job, followed to the end) and can remove it", async (t) => {
  const worker = server.test.lifecycle.worker;
  if (!worker) return t.fail('no in-process worker');
  await worker.stop();
  const job = await server.test.services.jobs.enqueue({
    kind: 'refresh',
    libraryId: '/acme/gadgets',
    version: 'latest',
    params: testJobParams(),
    teamId: null,
    createdBy: admin.userId,
  });
  await server.test.services.jobs.cancel(job._id, admin.userId);
  worker.start();
  await go(`/jobs/${job._id}`);
  await page.getByText('cancelled', { exact: true }).first().waitFor();
  t.true(await page.getByRole('button', { name: 'Cancel job' }).isHidden());
  await page.getByRole('button', { name: 'Run again' }).click();
  await page.waitForFunction((old) => !location.hash.endsWith(old), job._id);
  t.regex(page.url(), /#\/jobs\/job_/);
  await page.locator('[data-state="finalized"]').waitFor({ timeout: 60_000 });
  t.regex((await page.locator('.stages').textContent()) ?? '', /✓ finalized/);
  await web.shot('28-job-run-again');
  await go(`/jobs/${job._id}`);
  await page.getByRole('button', { name: 'Remove from the list' }).click();
  await page.getByRole('heading', { name: 'Jobs' }).waitFor();
  t.is(await server.test.services.jobs.get(job._id), null);
});

test.serial('after the session ends, signing in returns to the page with what was typed', async (t) => {
  await go('/add');
  await page.getByLabel('Repository URL').fill(`${git.url}/acme/typed-before-expiry`);
  await page.getByLabel('Skip version filtering').check();
  await page.context().clearCookies(); // the session ends
  await page.getByRole('button', { name: 'Add repository' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  t.regex(page.url(), /#\/login\?next=%2Fadd/);
  await signIn(admin.username, admin.password);
  await page.getByRole('heading', { name: 'Add a library' }).waitFor();
  t.is(await page.getByLabel('Repository URL').inputValue(), `${git.url}/acme/typed-before-expiry`);
  t.true(await page.getByLabel('Skip version filtering').isChecked());
  t.regex((await page.locator('#flash').textContent()) ?? '', /typed/);
});

test.serial('the playground renders sanitized Markdown, keeps the question in the URL, picks no library, and compares versions', async (t) => {
  await go('/playground');
  t.is(await page.getByLabel('Library', { exact: true }).inputValue(), '', 'no arbitrary default library');
  await page.getByLabel('Library name').fill('gadgets');
  await page.getByLabel('Library name').press('Enter');
  const searchNote = page.getByText(/team policy filtered/);
  await searchNote.waitFor();
  t.notRegex((await page.locator('main').textContent()) ?? '', /searchFilterApplied/);

  await page.getByLabel('Library', { exact: true }).selectOption('/acme/gadgets');
  await page.getByLabel('Question').fill('how do I make a gadget?');
  await page.getByLabel('Question').press('Enter');
  const answer = page.getByRole('region', { name: /^Answer for \/acme\/gadgets/ });
  await answer.waitFor();
  const md = answer.locator('.md');
  t.true((await md.locator('li').count()) >= 2, 'lists are rendered');
  t.true((await md.locator('code').count()) >= 1, 'inline code is rendered');
  t.notRegex((await md.allTextContents()).join(' '), /`makeGadget\(\)`/, 'no literal backticks');
  t.is(await answer.locator('script, [onerror], a[href^="javascript"]').count(), 0, 'indexed docs cannot inject script');
  t.is(await page.evaluate('window.__pwned'), undefined);
  t.regex((await answer.locator('[data-tokens]').textContent()) ?? '', /\d+ tokens/);
  await answer.getByRole('tab', { name: 'MCP tool text (query-docs)' }).click();
  await answer
    .getByLabel('The text query-docs returns')
    .filter({ hasText: /makeGadget/ })
    .waitFor();
  await web.shot('21-playground-rendered');

  // Shareable: the URL carries the question; opening it asks again.
  t.regex(page.url(), /#\/playground\?library=%2Facme%2Fgadgets&q=how\+do\+I\+make\+a\+gadget/);
  const shared = page.url();
  await page.goto(`${url}/dashboard/#/libraries`);
  await page.goto(shared);
  await page.getByRole('region', { name: /^Answer for \/acme\/gadgets/ }).waitFor();
  t.is(await page.getByLabel('Question').inputValue(), 'how do I make a gadget?');

  // Build the older tag too, then ask both versions at once.
  const refreshed = await fetch(`${url}/v2/refresh`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${admin.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ libraryName: '/acme/gadgets/v1.0.0' }),
  });
  t.is(refreshed.status, 200, await refreshed.text());
  await page.reload();
  await page.getByRole('region', { name: /^Answer for \/acme\/gadgets/ }).waitFor();
  await page.getByLabel('Version', { exact: true }).selectOption('v1.0.0');
  await page.getByLabel('Compare with version').selectOption('v2.0.0');
  await page.getByRole('button', { name: 'Get context' }).click();
  await page.getByRole('region', { name: 'Answer for /acme/gadgets/v2.0.0' }).waitFor();
  const left = (await page.getByRole('region', { name: 'Answer for /acme/gadgets/v1.0.0' }).textContent()) ?? '';
  const right = (await page.getByRole('region', { name: 'Answer for /acme/gadgets/v2.0.0' }).textContent()) ?? '';
  t.regex(left, /buildGadget/);
  t.regex(right, /makeGadget/);
  await web.shot('22-playground-compare');
});

test.serial(
  'keys: the list shows prefix, created and last use, sorts; a new key comes with MCP setups and a test; a deleted key leaves the screen',
  async (t) => {
    await go('/keys');
    await page.getByLabel('Name').fill('laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const value = await page.getByLabel('New API key').inputValue();
    t.regex(value, /^smk_/);
    for (const client of ['Cursor', 'Claude Code', 'VS Code', 'Any client (stdio)']) {
      await page.getByRole('tab', { name: client, exact: true }).click();
      const config = (await page.getByLabel(`${client} configuration`, { exact: true }).textContent()) ?? '';
      t.true(config.includes(value) && config.includes(client.includes('stdio') ? `--api-url ${url}` : `${url}/mcp`), client);
    }
    JSON.parse((await page.getByLabel('VS Code configuration', { exact: true }).textContent()) ?? '');
    t.regex(
      (await page.getByLabel('Any client (stdio) configuration', { exact: true }).textContent()) ?? '',
      /\/bin\/shelfmark\.mjs mcp --transport stdio/,
      "Shelfmark's own stdio bridge, by its real path",
    );
    await page.getByRole('button', { name: 'Test this key' }).click();
    await page.getByText(/The key works: it acts as/).waitFor();
    await web.shot('23-keys-created');
    const rows = page.locator('tbody tr', { hasText: 'laptop' });
    t.regex((await rows.first().textContent()) ?? '', new RegExp(value.slice(0, 8)), 'the prefix tells keys with the same name apart');
    t.regex((await rows.first().textContent()) ?? '', /\d{1,2}:\d{2}/, 'last used after the test');
    await page.getByLabel('Sort').selectOption('name');
    await page.getByRole('button', { name: 'Delete key laptop' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete key' }).click();
    await page.getByText(/was deleted and no longer works/).waitFor();
    t.is(await page.getByLabel('New API key').count(), 0, "the deleted key's value is gone from the screen");
  },
);

test.serial('at 390 px: a menu button, no sideways scrolling, tables as cards, keyboard-only navigation', async (t) => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await go('/jobs');
    const menu = page.getByRole('button', { name: 'Menu' });
    t.true(await menu.isVisible());
    t.true(await page.locator('#nav').isHidden(), 'the navigation folds away');
    const header = await page.locator('.topbar').boundingBox();
    t.true((header?.height ?? 999) < 90, `header ${header?.height} px`);
    t.true(await page.evaluate(() => document.scrollingElement.scrollWidth <= 390), 'no sideways scroll');
    await web.shot('24-phone-jobs');
    // Keyboard only: Tab to the menu button, open it, go to the playground.
    await menu.focus();
    await page.keyboard.press('Enter');
    t.is(await menu.getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    t.is(await page.evaluate(() => (document.activeElement as unknown as { textContent: string }).textContent), 'Playground');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Playground' }).waitFor();
    t.true(await page.locator('#nav').isHidden(), 'the menu closes after navigating');
    await go('/libraries');
    t.true(await page.evaluate(() => document.scrollingElement.scrollWidth <= 390));
    await web.shot('25-phone-libraries');
  } finally {
    await page.setViewportSize({ width: 1366, height: 768 });
  }
});

test.serial('policies: library autocomplete from the catalogue, and a preview of what the team will see before saving', async (t) => {
  await go('/policies');
  const pick = page.getByLabel('Library', { exact: true });
  await page.locator('datalist option[value="/acme/gadgets"]').waitFor({ state: 'attached' });
  await pick.fill('/acme/gadgets');
  await page.getByLabel('List', { exact: true }).selectOption('blocked');
  await page.getByRole('button', { name: 'Add to the list' }).click();
  t.is(await page.getByLabel('Blocked libraries').inputValue(), '/acme/gadgets');
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await preview.waitFor();
  const text = (await preview.textContent()) ?? '';
  t.regex(text, /The team would see 0 of 1 libraries/);
  t.regex(text, /Hidden\/acme\/gadgets/);
  await web.shot('26-policies-preview');
  const saved = (await page.evaluate(async () => (await fetch('/v2/policies')).json())) as { libraryFilters: { blockedLibraries: string[] } };
  t.deepEqual(saved.libraryFilters.blockedLibraries, [], 'a preview saves nothing');
  await pick.fill('not an id');
  await page.getByRole('button', { name: 'Add to the list' }).click();
  await page.getByText('Choose a library id like /owner/repo.').waitFor();
});

test.serial('usage by key, team and channel, and questions that found nothing or were answered weakly, linked to their library', async (t) => {
  const ask = (query: string) =>
    fetch(`${url}/v2/context?${new URLSearchParams({ libraryId: '/acme/gadgets', query, type: 'json' })}`, {
      headers: { Authorization: `Bearer ${admin.key}` },
    });
  t.is((await ask('how do I make a gadget?')).status, 200);
  t.is((await ask('zyxwvut qqqqq')).status, 404);
  await go('/usage');
  const byKey = page.locator('section', { has: page.getByRole('heading', { name: 'By API key' }) });
  await byKey.getByText('test key').waitFor();
  t.regex((await byKey.textContent()) ?? '', new RegExp(admin.key.slice(0, 8)));
  const byTeam = page.locator('section', { has: page.getByRole('heading', { name: 'By team' }) });
  t.regex((await byTeam.textContent()) ?? '', new RegExp(`team ${admin.username}`));
  const gaps = page.locator('section', { has: page.getByRole('heading', { name: 'Questions that found nothing' }) });
  const question = gaps.getByRole('link', { name: 'zyxwvut qqqqq' });
  await question.waitFor();
  t.is(await gaps.getByRole('link', { name: '/acme/gadgets' }).first().getAttribute('href'), '#/library/acme/gadgets');
  // Weak answers are judged against the library's own questions: five that its docs answer
  // well, and one whose words the docs do not use but for the library's name.
  for (const q of ['makeGadget', 'make a gadget', 'gadget size', 'import makeGadget from gadgets', 'gadgets guide']) t.is((await ask(q)).status, 200, q);
  const weakQuestion = 'gadget walrus quokka'; // only the library's own name matches (a third of the question: above the relevance floor)
  t.is((await ask(weakQuestion)).status, 200, 'a weak question is still answered');
  await go('/usage?days=7');
  const weak = page.locator('section', { has: page.getByRole('heading', { name: 'Questions answered weakly' }) });
  const weakLink = weak.getByRole('link', { name: weakQuestion });
  await weakLink.waitFor();
  t.is(await weak.getByRole('link', { name: '/acme/gadgets' }).first().getAttribute('href'), '#/library/acme/gadgets');
  t.regex((await weak.textContent()) ?? '', /\d+%/);
  t.is(await weak.getByRole('link', { name: 'make a gadget' }).count(), 0, 'a well-answered question is not listed');
  await web.shot('27-usage-breakdown');
  await weakLink.click();
  await page.getByRole('heading', { name: 'Playground' }).waitFor();
  t.is(await page.getByLabel('Question').inputValue(), weakQuestion);
  await go('/usage?days=30');
  await page
    .locator('section', { has: page.getByRole('heading', { name: 'Questions that found nothing' }) })
    .getByRole('link', { name: 'zyxwvut qqqqq' })
    .click();
  await page.getByRole('heading', { name: 'Playground' }).waitFor();
  t.is(await page.getByLabel('Question').inputValue(), 'zyxwvut qqqqq');
});

test.serial('a member without a team is told so on the policies page, not "team_not_found"', async (t) => {
  const member = await makeUser(server.test);
  const context = await web.browser.newContext({ viewport: { width: 1366, height: 768 } });
  const other = await context.newPage();
  try {
    await other.goto(`${url}/dashboard/#/policies`);
    await other.getByLabel('Username').fill(member.username);
    await other.getByLabel('Password').fill(member.password);
    await other.getByLabel('Password').press('Enter');
    await other.getByRole('heading', { name: 'Policies' }).waitFor();
    await other.getByText('You are not in a team yet').waitFor();
    t.notRegex((await other.locator('main').textContent()) ?? '', /team_not_found|access_denied/);
  } finally {
    await context.close();
  }
});

test.serial('compressed, fingerprinted assets: a reload asks the server for the HTML alone', async (t) => {
  // What Chromium asks for (over http it offers gzip and deflate; brotli over https).
  const accept = (await page.evaluate(async () => (await fetch('/v2/libraries')).ok)) ? 'gzip, deflate, br, zstd' : '';
  for (const target of ['/dashboard/js/main.js', '/dashboard/app.css', '/v2/openapi.json']) {
    const res = await fetch(`${url}${target}`, { headers: { 'Accept-Encoding': accept } });
    t.regex(res.headers.get('content-encoding') ?? '', /^(br|gzip)$/, target);
  }
  await page.goto(`${url}/dashboard/#/libraries`);
  await page.getByRole('heading', { name: 'Libraries' }).waitFor();
  await page.waitForLoadState('networkidle');
  const start = hits.length;
  await page.reload();
  await page.getByRole('heading', { name: 'Libraries' }).waitFor();
  await page.waitForLoadState('networkidle');
  const dashboardHits = hits.slice(start).filter((u) => u.startsWith('/dashboard'));
  t.log(`reload: ${dashboardHits.length} dashboard request(s): ${dashboardHits.join(' ')}`);
  t.deepEqual(dashboardHits, ['/dashboard/'], 'only the HTML is revalidated');
});

test.serial('axe-core finds no serious or critical violations on any page', async (t) => {
  // A job page too (a cancelled job: its stages, summary, log and actions).
  const job = await server.test.services.jobs.enqueue({
    kind: 'refresh',
    libraryId: '/acme/axe',
    version: 'latest',
    params: testJobParams(),
    teamId: null,
    createdBy: admin.userId,
  });
  await server.test.services.jobs.cancel(job._id, admin.userId);
  const pages = [
    '/libraries',
    '/library/acme/gadgets',
    '/add',
    '/jobs',
    `/jobs/${job._id}`,
    '/playground?library=%2Facme%2Fgadgets&q=make%20a%20gadget',
    '/usage',
    '/keys',
    '/teams',
    '/policies',
    '/permissions',
    '/credentials',
    '/no-such-page',
  ];
  const found: string[] = [];
  for (const hash of pages) {
    await go(hash);
    found.push(...(await axe(hash)));
  }
  await page.context().clearCookies();
  await go('/login');
  found.push(...(await axe('/login')));
  // The forced change of credentials (a user whose initial password must be changed), as
  // first shown and with the error a mismatched repeat gives.
  const forced = { username: `f${Date.now().toString(36)}`, password: 'initial-pass-1' };
  await server.test.services.users.create({ ...forced, role: 'member', mustChangePassword: true });
  await signIn(forced.username, forced.password);
  await page.getByRole('heading', { name: 'Change your credentials' }).waitFor();
  found.push(...(await axe('/change-credentials')));
  await page.getByLabel('Current password').fill(forced.password);
  await page.getByLabel('New password', { exact: true }).fill('another-pass-2');
  await page.getByLabel('Repeat the new password').fill('another-pass-3');
  await page.getByRole('button', { name: 'Change credentials' }).click();
  await page.getByText('The two new passwords differ.').waitFor();
  found.push(...(await axe('/change-credentials with an error')));
  await web.shot('29-change-credentials-error');
  await page.context().clearCookies();
  await go('/login');
  t.deepEqual(found, []);
  // The check can fail: a button without a name is a critical violation.
  await page.evaluate(`document.querySelector('main').append(Object.assign(document.createElement('button'), { type: 'button' }))`);
  t.true((await axe('/login + nameless button')).some((v) => v.includes('button-name')));
});

test.serial('no script errors or CSP violations on any page', (t) => {
  t.deepEqual(web.problems, []);
});
