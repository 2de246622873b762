/**
 * Issue 31 in a real headless Chromium against the real server (Elasticsearch, FerretDB, the
 * in-process worker, a local Git server): the Connect page (setups, a key, a live test), the
 * team's policy everywhere (list, library page, playground, search, read-only policy form),
 * library pages that manage the library (settings, sources, versions of one build as one,
 * the snippet browser), readable answers (highlighted, copyable code), usage in hourly
 * buckets with the playground apart, one add form that adapts, sortable lists, focus after a
 * delete, a 390 px phone, and axe-core on every page (0 serious or critical findings).
 * Screenshots go to /tmp/dashboard-shots (40-… to 49-…).
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { makeUser, type TestUser } from '../auth/fixtures';
import { launchBrowser, startLiveServer, type LiveBrowser, type LiveServer } from './browser';
import { fixtureFile } from '../fixtures';

// Browser globals used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
interface El {
  tagName: string;
  textContent: string | null;
  getAttribute(n: string): string | null;
}
declare const document: { activeElement: El | null; scrollingElement: { scrollWidth: number }; querySelectorAll(s: string): ArrayLike<El> };
declare const navigator: { clipboard: { readText(): Promise<string> } };

let git: GitServer;
let server: LiveServer;
let web: LiveBrowser;
let page: Page;
let url: string;
let admin: TestUser;
let member: TestUser;

const AXE_SOURCE = fs.readFileSync(path.join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8');

const GUIDE = `# Widgets guide

Widgets are small reusable parts for web pages.

## Creating a widget

Call \`createWidget()\` with a name to make a new widget:

\`\`\`js
import { createWidget } from 'widgets';
const w = createWidget('spinner', { size: 3 });
\`\`\`

## Deleting a widget

Use \`w.destroy()\` to free its resources when it is no longer needed.

\`\`\`python
widget.destroy()  # frees the resources
\`\`\`
`;

async function go(hash: string, on: Page = page) {
  await on.goto(`${url}/dashboard/#${hash}`);
  await on.locator('main h1').first().waitFor();
}

async function signIn(on: Page, user: TestUser) {
  await on.goto(`${url}/dashboard/#/login`);
  await on.getByLabel('Username').fill(user.username);
  await on.getByLabel('Password').fill(user.password);
  await on.getByLabel('Password').press('Enter');
  await on.getByRole('heading', { name: 'Libraries' }).waitFor();
}

async function axe(name: string, on: Page = page) {
  await on.waitForLoadState('networkidle').catch(() => undefined);
  await on.evaluate(AXE_SOURCE);
  const result = (await on.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const noSidewaysScroll = (on: Page = page) => on.evaluate(() => document.scrollingElement.scrollWidth <= 390);

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/widgets', [
    { files: { 'README.md': '# Widgets\n\nA widget toolkit for the web.\n', 'docs/guide.md': GUIDE.replace('spinner', 'old-spinner') }, tag: 'v1.0.0' },
    {
      files: {
        'README.md': '# Widgets\n\nA widget toolkit for the web.\n',
        'docs/guide.md': GUIDE,
        'docs/api.md': '# API\n\n## widget.start()\n\nStarts the widget animation loop.\n\n```ts\nstart(): void\n```\n',
      },
      tag: 'v2.0.0',
    },
  ]);
  createRepo(git.root, 'acme/gadgets', [
    { files: { 'README.md': '# Gadgets\n\nGadgets are parts for dashboards.\n', 'docs/use.md': GUIDE.replace(/widget/gi, 'gadget') } },
  ]);
  server = await startLiveServer({
    GITHUB_BASE_URL: git.url,
    GIT_ALLOWED_URL_PREFIXES: `${git.url}/`,
    RATE_LIMIT_ANON_PER_MINUTE: '2000',
    RATE_LIMIT_KEY_PER_MINUTE: '2000',
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
  });
  url = server.url;
  admin = await makeUser(server.test, { role: 'admin', plan: 'pro', teamRole: 'owner' });
  const add = async (repo: string) => {
    const res = await fetch(`${url}/v2/add/repo/github`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ docsRepoUrl: `${git.url}/${repo}` }),
    });
    if (res.status !== 200) throw new Error(`${repo}: ${res.status} ${await res.text()}`);
  };
  await add('acme/widgets');
  await add('acme/gadgets');
  // v2.0.0 is the branch head: built as its own version too, it is the same build as latest.
  const tagged = await fetch(`${url}/v2/refresh`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${admin.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ libraryName: '/acme/widgets/v2.0.0' }),
  });
  if (tagged.status !== 200) throw new Error(`v2.0.0: ${await tagged.text()}`);
  // A member whose team may use only /acme/widgets.
  member = await makeUser(server.test, { plan: 'pro', teamRole: 'member' });
  const policy = await fetch(`${url}/v2/policies?teamId=${member.teamId}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${admin.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ libraryFilters: { mode: 'select', allowedLibraries: ['/acme/widgets'] } }),
  });
  if (policy.status !== 200) throw new Error(`policy: ${await policy.text()}`);
  web = await launchBrowser();
  page = web.page;
  await signIn(page, admin);
});

test.afterEach.always(async (t) => {
  if (!t.passed && web) await web.shot(`failed-31-${t.title.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => undefined);
});

test.after.always(async () => {
  await web?.close();
  await server?.close();
  await git?.close();
});

test.serial(
  'Connect: in the navigation and on the landing page; the address with its loopback warning; a new key in ten setups; a live test shows what the assistant sees',
  async (t) => {
    await go('/libraries');
    t.is(await page.locator('#nav a[href="#/connect"]').count(), 1, 'always in the navigation');
    await page.getByRole('link', { name: 'Connect an assistant' }).first().click();
    await page.getByRole('heading', { name: 'Connect an assistant' }).waitFor();
    const server = page.getByRole('region', { name: 'This server' });
    t.regex((await server.textContent()) ?? '', new RegExp(`${url}/mcp`));
    t.regex((await server.getByRole('note').textContent()) ?? '', /loopback[\s\S]*SHELFMARK_PUBLIC_URL/);
    // Before a key is chosen, the setups show a placeholder; a new key goes into every one.
    t.regex((await page.getByLabel('Claude Code setup', { exact: true }).textContent()) ?? '', /smk_YOUR_KEY/);
    await page.getByLabel('Key name').fill('laptop assistant');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText(/Key “laptop assistant” created/).waitFor();
    const tabs = page.getByRole('tablist', { name: 'Assistant' }).getByRole('tab');
    t.deepEqual(await tabs.allTextContents(), [
      'Claude Code',
      'Claude Desktop',
      'Cursor',
      'VS Code',
      'Windsurf',
      'Codex CLI',
      'Zed',
      'JetBrains IDEs',
      'Gemini CLI',
      'Any client (stdio)',
    ]);
    const key = /Bearer (smk_[\w-]+)/.exec((await page.getByLabel('Claude Code setup', { exact: true }).textContent()) ?? '')?.[1] ?? '';
    t.regex(key, /^smk_/);
    await page.getByRole('tab', { name: 'Codex CLI' }).click();
    t.regex((await page.getByLabel('Codex CLI setup', { exact: true }).textContent()) ?? '', new RegExp(`\\[mcp_servers\\.shelfmark\\][\\s\\S]*${key}`));
    t.regex(page.url(), /client=codex/);
    await page.getByRole('tab', { name: 'Codex CLI' }).press('ArrowRight');
    t.is(await page.evaluate(() => document.activeElement?.textContent), 'Zed', 'arrow keys move between assistants');
    await page.getByRole('tab', { name: 'Any client (stdio)' }).click();
    const stdio = (await page.getByLabel('Any client (stdio) setup', { exact: true }).textContent()) ?? '';
    t.regex(stdio, /^node \/\S+\/bin\/shelfmark\.mjs mcp --transport stdio --api-url http:\/\/127\.0\.0\.1:\d+ --api-key smk_/, 'the real path, not /path/to');
    // The highlighted setup has a copy button that copies exactly the text.
    await page.getByRole('button', { name: 'Copy Any client (stdio) setup' }).click();
    t.is(await page.evaluate(() => navigator.clipboard.readText()), stdio);
    await page.getByLabel('Library').selectOption('/acme/widgets');
    await page.getByLabel('Question').fill('how do I create a widget?');
    await page.getByRole('button', { name: 'Test this setup' }).click();
    await page.getByText('The setup works: this is what your assistant will see.').waitFor({ timeout: 30_000 });
    const steps = (await page.locator('.test-steps').textContent()) ?? '';
    t.regex(steps, /with the key/);
    t.regex(steps, /get-library-docs, query-docs, resolve-library-id|resolve-library-id, query-docs, get-library-docs/);
    t.regex((await page.getByLabel('query-docs answer').textContent()) ?? '', /createWidget\('spinner'/);
    await web.shot('40-connect');
    // The test used the key alone: it was counted against it.
    const keys = (await page.evaluate(async () => (await fetch('/v2/admin/keys')).json())) as { keys: Array<{ name: string; lastUsedAt: string | null }> };
    t.truthy(keys.keys.find((k) => k.name === 'laptop assistant')?.lastUsedAt);
    // A wrong key is refused in words.
    await page.getByLabel('Key', { exact: true }).selectOption('paste');
    await page.getByLabel('API key').fill('smk_wrong');
    await page.getByRole('button', { name: 'Test this setup' }).click();
    await page.locator('.alert.error[data-code="invalid_api_key"]').waitFor();
  },
);

test.serial(
  "policy everywhere: a member's list, library page, playground, search and policy form show what the member may use, and say what the policy hides",
  async (t) => {
    const context = await web.browser.newContext({ viewport: { width: 1366, height: 768 } });
    const other = await context.newPage();
    try {
      await signIn(other, member);
      await other.locator('#lib-list a', { hasText: 'Widgets' }).waitFor();
      t.is(await other.locator('#lib-list a', { hasText: 'Gadgets' }).count(), 0, 'the hidden library is not listed');
      t.regex((await other.locator('#lib-count').textContent()) ?? '', /1 of 1 libraries · 1 hidden by your team’s policy/);
      t.true(await other.getByLabel('Also show the libraries your team’s policy hides').isHidden(), 'members do not manage hidden libraries');
      await other.getByLabel('Filter').fill('gadgets');
      await other.getByText(/No library you may use matches; 1 that matches is hidden by your team’s policy/).waitFor();
      await go('/library/acme/gadgets', other);
      await other.locator('[data-code="access_denied"]').waitFor();
      t.regex((await other.locator('main').textContent()) ?? '', /Hidden by your team’s policy/);
      await go('/playground', other);
      t.deepEqual(await other.getByLabel('Library', { exact: true }).locator('option').allTextContents(), ['Choose a library…', 'Widgets (/acme/widgets)']);
      t.regex((await other.locator('[data-hidden-by-policy]').textContent()) ?? '', /1 library is hidden by your team’s policy/);
      await other.getByLabel('Library name').fill('gadgets');
      await other.getByLabel('Library name').press('Enter');
      await other.getByText(/policy hides the library with this name: \/acme\/gadgets/).waitFor();
      await go('/policies', other);
      await other.getByText('You can read this policy').waitFor();
      t.is(await other.getByRole('button', { name: 'Save policy' }).count(), 0, 'no save for a member');
      t.true(await other.getByLabel('Allowed libraries').isDisabled());
      t.is(await other.getByLabel('Allowed libraries').inputValue(), '/acme/widgets');
      await web.shot('47-member-policy-readonly').catch(() => undefined);
      await other.screenshot({ path: '/tmp/dashboard-shots/47-member-policy-readonly.png', fullPage: true });
      t.deepEqual(await axe('member /policies', other), []);
      await go('/libraries', other);
      t.deepEqual(await axe('member /libraries', other), []);
    } finally {
      await context.close();
    }
    // The admin's policy form refuses a string that is not a library id, in words.
    await go(`/policies?team=${member.teamId}`);
    await page.getByLabel('Allowed libraries').fill('/acme/widgets\nnot an id');
    await page.getByRole('button', { name: 'Save policy' }).click();
    const error = page.locator('form .alert.error');
    await error.waitFor();
    t.regex((await error.textContent()) ?? '', /Allowed libraries: “not an id” is not a library id/);
    const saved = (await page.evaluate(async (team) => (await fetch(`/v2/policies?teamId=${team}`)).json(), member.teamId)) as {
      libraryFilters: { allowedLibraries: string[] };
    };
    t.deepEqual(saved.libraryFilters.allowedLibraries, ['/acme/widgets'], 'nothing was saved');
  },
);

test.serial(
  'a library page manages the library: versions of one build shown as one, the source, settings saved and kept, a webhook made and removed',
  async (t) => {
    await go('/library/acme/widgets');
    const versions = page.locator('table', { has: page.getByRole('columnheader', { name: 'Ref' }) });
    await versions.waitFor();
    t.regex((await versions.locator('tbody tr').first().textContent()) ?? '', /latest = v2\.0\.0/, 'latest and v2.0.0 are one build');
    t.is(await versions.locator('tbody tr').count(), 1);
    t.regex((await page.locator('dl.facts').textContent()) ?? '', /Repository.*acme\/widgets/);
    t.notRegex((await page.locator('dl.facts').textContent()) ?? '', /Repository—/);
    await web.shot('41-library-page');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Title and description' }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill('Acme Widgets');
    await page.getByLabel('Description', { exact: true }).fill('Reusable widgets for web pages.');
    await page
      .locator('form', { has: page.getByRole('heading', { name: 'Title and description' }) })
      .getByRole('button', { name: 'Save' })
      .click();
    await page.getByText('Title and description saved.').waitFor();
    await page.getByRole('textbox', { name: 'Aliases' }).fill('widgetkit\nwidget-toolkit');
    await page
      .locator('form', { has: page.getByRole('heading', { name: 'Aliases' }) })
      .getByRole('button', { name: 'Save' })
      .click();
    await page.getByText('Aliases saved.').waitFor();
    await page.getByLabel('Refresh', { exact: true }).selectOption('hours');
    await page.getByLabel('Hours between refreshes').fill('0');
    await page
      .locator('form', { has: page.getByRole('heading', { name: 'Refresh schedule' }) })
      .getByRole('button', { name: 'Save' })
      .click();
    t.false(
      await page.getByLabel('Hours between refreshes').evaluate((el) => (el as unknown as { validity: { valid: boolean } }).validity.valid),
      'the browser refuses 0 hours before anything is sent',
    );
    await page.getByLabel('Hours between refreshes').fill('12');
    await page
      .locator('form', { has: page.getByRole('heading', { name: 'Refresh schedule' }) })
      .getByRole('button', { name: 'Save' })
      .click();
    await page.getByText('Refresh schedule saved.').waitFor();
    await page.getByLabel('Rule', { exact: true }).selectOption('range');
    await page.getByLabel('Range', { exact: true }).fill('not a range ((');
    await page
      .locator('form', { has: page.getByRole('heading', { name: 'Version rule' }) })
      .getByRole('button', { name: 'Save' })
      .click();
    const ruleError = page.locator('form', { has: page.getByRole('heading', { name: 'Version rule' }) }).locator('.alert.error');
    await ruleError.waitFor();
    t.notRegex((await ruleError.textContent()) ?? '', /versionRule/, 'no API field names');
    await page.getByRole('button', { name: 'Create a webhook' }).click();
    const secret = page.getByLabel('webhook secret', { exact: true });
    await secret.waitFor();
    t.regex((await secret.textContent()) ?? '', /^whs_/);
    await web.shot('43-library-settings');
    const lib = (await page.evaluate(async () => (await fetch('/v2/libraries/acme/widgets')).json())) as {
      title: string;
      description: string;
      aliases: string[];
      schedule: { everyHours: number };
      webhook: { configured: boolean };
    };
    t.like(lib, {
      title: 'Acme Widgets',
      description: 'Reusable widgets for web pages.',
      aliases: ['widgetkit', 'widget-toolkit'],
      schedule: { everyHours: 12 },
      webhook: { configured: true },
    });
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove webhook' }).click();
    await page.getByText('The webhook was removed.').waitFor();
    t.deepEqual(await axe('/library settings'), []);
  },
);

test.serial('the snippet browser: search, filters by kind and page, highlighted code with copy buttons', async (t) => {
  await go('/library/acme/widgets?tab=snippets');
  const status = page.locator('#snippet-status');
  await status.filter({ hasText: /of \d+ snippets/ }).waitFor();
  await page.getByLabel('Search the snippets').fill('destroy');
  await status.filter({ hasText: /of 1 snippets|of [2-9] snippets/ }).waitFor();
  t.regex((await page.locator('#snippet-results').textContent()) ?? '', /destroy/);
  await page.getByLabel('Search the snippets').fill('');
  await page.getByLabel('Kind', { exact: true }).selectOption('code');
  await page.getByRole('button', { name: /^docs\/guide\.md/ }).click();
  await status.filter({ hasText: /in docs\/guide\.md/ }).waitFor();
  const cards = page.locator('#snippet-results article.snippet');
  t.true((await cards.count()) >= 2);
  t.true((await page.locator('#snippet-results .tok-kwd, #snippet-results .tok-str').count()) > 0, 'code is highlighted');
  t.is(await page.locator('#snippet-results pre[data-language="python"] code[data-highlighted="py"]').count(), 1, 'each language its own grammar');
  await cards
    .first()
    .getByRole('button', { name: /^Copy the snippet/ })
    .click();
  t.regex(await page.evaluate(() => navigator.clipboard.readText()), /```js\nimport \{ createWidget \}/);
  await web.shot('42-snippet-browser');
  t.deepEqual(await axe('/library snippets'), []);
});

test.serial(
  'playground answers are readable (Markdown, highlighted code, copy) and counted apart as the playground; usage shows hours with values on hover',
  async (t) => {
    await go('/playground?library=%2Facme%2Fwidgets&q=how%20do%20I%20create%20a%20widget');
    const answer = page.getByRole('region', { name: /^Answer for \/acme\/widgets/ });
    await answer.waitFor();
    t.true((await answer.locator('.tok-kwd, .tok-str').count()) > 0);
    t.notRegex((await answer.locator('.md').first().textContent()) ?? '', /`createWidget\(\)`/, 'no raw backticks');
    await answer.getByRole('tab', { name: 'MCP tool text (query-docs)' }).click();
    await answer
      .getByLabel('The text query-docs returns')
      .filter({ hasText: /createWidget/ })
      .waitFor();
    await web.shot('44-playground-highlighted');
    await go('/usage');
    const range = page.locator('[data-range]');
    await range.waitFor();
    t.is(await range.getAttribute('data-range'), '2hour', 'a new install is shown in hours');
    t.regex((await range.textContent()) ?? '', /of them from this dashboard’s playground/);
    const chart = page.locator('figure', { has: page.locator('svg[aria-label="Requests per hour by channel"]') });
    const bar = chart.locator('rect[data-tip*="Dashboard playground"]').last();
    await bar.hover();
    const tip = chart.locator('.chart-tip');
    await tip.waitFor();
    t.regex((await tip.textContent()) ?? '', /(\d\d:00|\d\d-\d\d) · Dashboard playground: \d+/);
    await web.shot('45-usage-hours');
    await page.getByLabel('Range').selectOption('30d');
    await page.locator('[data-range="30day"]').waitFor();
    t.deepEqual(await axe('/usage'), []);
  },
);

test.serial('one add form adapts to the kind of source; an upload links its job, named for its source; errors speak the form’s words', async (t) => {
  await go('/add');
  t.is(await page.locator('main form.panel:visible').count(), 1, 'one form at a time');
  await page.getByLabel('Repository URL').fill('https://example.org/not/a/host/we/know');
  await page.getByLabel('Host').selectOption('github');
  await page.getByRole('button', { name: 'Add repository' }).click();
  const error = page.locator('form .alert.error');
  await error.waitFor({ timeout: 30_000 });
  t.regex((await error.textContent()) ?? '', /Repository URL must be a github repository URL/);
  t.notRegex((await error.textContent()) ?? '', /docsRepoUrl/);
  await page.getByLabel('What are the docs?').selectOption('openapi');
  t.regex(page.url(), /kind=openapi/);
  await page.getByLabel('Specification file').setInputFiles(fixtureFile('openapi/petstore-lite.json'));
  await page.getByRole('button', { name: 'Upload specification' }).click();
  const ok = page.locator('.alert.ok', { hasText: 'was indexed' });
  await ok.waitFor({ timeout: 60_000 });
  const jobLink = page.locator('form:visible a.mono');
  t.regex((await jobLink.textContent()) ?? '', /^job_/);
  t.regex((await page.locator('form:visible .stage-bars').textContent()) ?? '', /Reading the file/);
  t.notRegex((await page.locator('form:visible .stage-bars').textContent()) ?? '', /Cloning/);
  await web.shot('46-add-upload-job');
  t.deepEqual(await axe('/add?kind=openapi'), []);
});

test.serial('lists: columns sort (aria-sort), a state filter, focus after deleting a key, and a job log that scrolls by keyboard', async (t) => {
  await go('/libraries');
  const header = page.getByRole('columnheader', { name: 'Snippets' });
  await header.getByRole('button').click();
  t.is(await header.getAttribute('aria-sort'), 'descending');
  const first = await page.locator('#lib-list tbody tr').first().locator('td').first().textContent();
  await header.getByRole('button').click();
  t.is(await header.getAttribute('aria-sort'), 'ascending');
  t.not(await page.locator('#lib-list tbody tr').first().locator('td').first().textContent(), first);
  t.regex(page.url(), /sort=snippets&dir=asc/);
  await page.getByLabel('State').selectOption('failed');
  await page.getByText('No library matches these filters.').waitFor();
  await page.getByLabel('State').selectOption('');
  // Keys: after a delete, focus goes to the next key's delete button.
  await go('/keys');
  for (const name of ['first key', 'second key']) {
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('button', { name: `Delete key ${name}` }).waitFor();
  }
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByLabel('Sort').selectOption('name');
  await page.getByRole('button', { name: 'Delete key first key' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete key' }).click();
  await page.getByText(/“first key” was deleted/).waitFor();
  await page.waitForFunction(() => (document.activeElement?.getAttribute('aria-label') ?? '').startsWith('Delete key'));
  t.not(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Delete key first key');
  // The job log is focusable, so it scrolls by keyboard.
  const { jobs } = (await page.evaluate(async () => (await fetch('/v2/jobs?limit=5')).json())) as { jobs: Array<{ id: string }> };
  await go(`/jobs/${jobs[0].id}`);
  const log = page.getByRole('list', { name: 'Job log' });
  await log.waitFor();
  t.is(await log.getAttribute('tabindex'), '0');
  t.deepEqual(await axe('/jobs/:id'), []);
});

test.serial('at 390 px: Connect, a library page, the snippet browser and a playground answer fit the phone (no sideways scrolling) and pass axe', async (t) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const found: string[] = [];
  try {
    for (const [hash, shot] of [
      ['/connect', '48-phone-connect'],
      ['/library/acme/widgets', '48-phone-library'],
      ['/library/acme/widgets?tab=snippets', '48-phone-snippets'],
      ['/playground?library=%2Facme%2Fwidgets&q=create%20a%20widget', '48-phone-playground'],
      ['/usage', '48-phone-usage'],
      ['/add', '48-phone-add'],
    ] as const) {
      await go(hash);
      if (hash.startsWith('/playground')) await page.getByRole('region', { name: /^Answer for/ }).waitFor();
      if (hash.includes('snippets')) await page.locator('#snippet-results article').first().waitFor();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      t.true(await noSidewaysScroll(), `${hash}: ${await page.evaluate(() => document.scrollingElement.scrollWidth)} px wide`);
      await web.shot(shot);
      found.push(...(await axe(`390px ${hash}`)));
    }
  } finally {
    await page.setViewportSize({ width: 1366, height: 768 });
  }
  t.deepEqual(found, []);
});

test.serial('axe-core: the other pages of the dashboard have no serious or critical findings either', async (t) => {
  const found: string[] = [];
  for (const hash of [
    '/libraries',
    '/library/acme/widgets',
    '/connect',
    '/jobs',
    '/keys',
    '/teams',
    '/policies',
    '/permissions',
    '/credentials',
    '/playground',
  ]) {
    await go(hash);
    found.push(...(await axe(hash)));
  }
  t.deepEqual(found, []);
});

test.serial('no script errors or CSP violations on any page', (t) => {
  t.deepEqual(web.problems, []);
});
