/**
 * Merged libraries end to end (catalog/merged-sources.ts): a repository on a real local Git
 * server and its website on a real local HTTP server, the same two pages on both (as Markdown
 * in the repository, as HTML on the site) plus one page only on each side. Built by the real
 * pipeline, merged through the API, answered through /v2/context, library search and MCP.
 */
import test from 'ava';
import { createTestApp, listenApp, type TestApp } from '../harness';
import { createRepo, startGitServer, type GitServer } from '../git-server';
import { adminKey, memberKey } from '../helpers';
import { startWebSite, type WebSite } from '../web-site';

let git: GitServer;
let site: WebSite;
let app: TestApp;
let admin: string;
let websiteId: string;
const REPO_ID = '/acme/gizmo';

const SPIN_PROSE =
  'A gizmo spins at the rate you give it, in turns per second. The rate must be a positive number; a gizmo asked to spin at zero stops at once and emits the stopped event. Spinning faster than the rated limit of the gizmo throws an overspeed error before anything moves, so check the limit first.';
const INSTALL_PROSE =
  'Install the gizmo package with your package manager before anything else. The package ships its own type definitions and has no runtime dependencies, so it works in Node and in browsers alike. After installing, import the gizmo factory from the package root.';

/** The repository: spin and install (install with its example), and a page only here. */
const REPO_FILES = {
  'README.md': '# Gizmo\n\nGizmos turn widgets into gadgets.\n',
  'docs/spin.md': `# Spinning\n\n## Spinning a gizmo\n\n${SPIN_PROSE}\n`,
  'docs/install.md': `# Install\n\n## Installing the gizmo package\n\n${INSTALL_PROSE}\n\n\`\`\`bash\nnpm install gizmo --save\n\`\`\`\n`,
  'docs/calibrate.md':
    '# Calibration\n\n## Calibrating the flux capacitor\n\nThe flux capacitor of a gizmo drifts with temperature; calibrate it every morning with the calibrate call and a reference widget.\n\n```js\ngizmo.calibrate({ reference: widget });\n```\n',
};

const html = (title: string, body: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main>${body}${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`;

/** The website: the same two pages (spin with an example the repository lacks, install without one), and a page only here. */
const SITE_FILES = {
  '/docs/index.html': html('Gizmo docs', '<h1>Gizmo docs</h1><p>The gizmo documentation.</p>', ['spin.html', 'install.html', 'polish.html']),
  '/docs/spin.html': html(
    'Spinning',
    `<h1>Spinning</h1><h2>Spinning a gizmo</h2><p>${SPIN_PROSE}</p><pre><code class="language-js">gizmo.spin({ rate: 3 });</code></pre>`,
  ),
  '/docs/install.html': html('Install', `<h1>Install</h1><h2>Installing the gizmo package</h2><p>${INSTALL_PROSE}</p>`),
  '/docs/polish.html': html(
    'Polishing',
    '<h1>Polishing</h1><h2>Polishing the chrome</h2><p>Polish the chrome housing of a gizmo with a dry cloth; solvents dull the finish and void the warranty.</p>',
  ),
};

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/gizmo', [{ files: REPO_FILES }]);
  site = await startWebSite({ files: SITE_FILES });
  app = await createTestApp({ GITHUB_BASE_URL: git.url, WEB_ALLOWED_HOSTS: '127.0.0.1', WEB_CRAWL_DELAY_MS: '0', RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  admin = await adminKey(app);
  const repo = await app.request
    .post('/v2/add/repo/github')
    .set(auth())
    .send({ docsRepoUrl: `${git.url}/acme/gizmo` });
  if (repo.status !== 200) throw new Error(`add repo: ${JSON.stringify(repo.body)}`);
  const web = await app.request
    .post('/v2/add/website')
    .set(auth())
    .send({ url: `${site.origin}/docs/`, scope: 'subpages', maxPages: 20, maxDepth: 3 });
  if (web.status !== 200) throw new Error(`add website: ${JSON.stringify(web.body)}`);
  websiteId = web.body.libraryName;
});

test.after.always(async () => {
  await app?.close();
  await git?.close();
  await site?.close();
});

const auth = (key = admin) => ({ authorization: `Bearer ${key}` });
const context = (libraryId: string, query: string) => app.request.get('/v2/context').set(auth()).query({ libraryId, query, type: 'json', tokens: 5000 });
/** How many served snippets hold the text (a page both sources hold must be one). */
const occurrences = (snippets: Array<{ content?: string; description?: string }>, text: string) =>
  snippets.filter((s) => `${s.content ?? ''}${s.description ?? ''}`.includes(text.slice(0, 60))).length;
const merge = (libraryId: string, body: object, key = admin) => app.request.post(`/v2/libraries${libraryId}/sources`).set(auth(key)).send(body);

test.serial('before the merge each source answers alone: the repository knows nothing of the site-only page', async (t) => {
  const polish = await context(REPO_ID, 'how do I polish the chrome housing');
  t.false(/dry cloth/.test(JSON.stringify(polish.body)), JSON.stringify(polish.body).slice(0, 300));
  const alone = await context(websiteId, 'polish the chrome housing');
  t.is(alone.status, 200);
  t.regex(JSON.stringify(alone.body), /dry cloth/);
});

test.serial('bad merges are refused with the spec codes and change nothing', async (t) => {
  const missing = await merge(REPO_ID, {});
  t.is(missing.status, 400);
  t.is(missing.body.error, 'validation_error');
  t.regex(missing.body.message, /source/);
  const extra = await merge(REPO_ID, { source: websiteId, color: 'red' });
  t.is(extra.status, 400);
  t.is(extra.body.error, 'validation_error');
  const itself = await merge(REPO_ID, { source: REPO_ID });
  t.is(itself.status, 400);
  t.is(itself.body.error, 'validation_error');
  const badId = await merge(REPO_ID, { source: 'not-an-id' });
  t.is(badId.status, 400);
  t.true(['invalid_library_id', 'validation_error'].includes(badId.body.error), JSON.stringify(badId.body));
  const absent = await merge(REPO_ID, { source: '/websites/nowhere-example' });
  t.is(absent.status, 404);
  t.is(absent.body.error, 'library_not_found');
  const noTarget = await merge('/acme/nothing', { source: websiteId });
  t.is(noTarget.status, 404);
  t.is(noTarget.body.error, 'library_not_found');
  const badJoins = await merge(REPO_ID, { source: websiteId, joins: 'v9.9.9' });
  t.is(badJoins.status, 400);
  t.is(badJoins.body.error, 'validation_error');
  t.regex(badJoins.body.message, /joins/);
  const member = await memberKey(app);
  const refused = await merge(REPO_ID, { source: websiteId }, member.key);
  t.is(refused.status, 403);
  // Nothing was written by any of them.
  t.deepEqual((await app.services.libraries.get(REPO_ID, { fresh: true }))?.mergedSources ?? [], []);
  t.falsy((await app.services.libraries.get(websiteId, { fresh: true }))?.mergedInto);
});

test.serial('merging the website in: one answer from both sources, a page both hold served once (the richer copy)', async (t) => {
  const res = await merge(REPO_ID, { source: websiteId });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.deepEqual(
    res.body.sources.map((s: { libraryId: string; role: string }) => [s.libraryId, s.role]),
    [
      [REPO_ID, 'own'],
      [websiteId, 'merged'],
    ],
  );
  const list = await app.request.get(`/v2/libraries${REPO_ID}/sources`).set(auth());
  t.is(list.status, 200);
  t.is(list.body.sources[1].joins, 'latest');

  // The site-only page now answers on the repository's id, and the provenance names the source.
  const polish = await context(REPO_ID, 'how do I polish the chrome housing');
  t.is(polish.status, 200);
  t.regex(JSON.stringify(polish.body.snippets), /dry cloth/);
  t.deepEqual(polish.body.provenance.mergedSources, [{ libraryId: websiteId, version: 'latest' }]);
  t.is(polish.body.provenance.libraryId, REPO_ID);
  // The repository-only page still does.
  t.regex(JSON.stringify((await context(REPO_ID, 'calibrate the flux capacitor')).body.snippets), /flux capacitor of a gizmo drifts/);

  // Spin is on both sides: served once, the site's copy (it has the example).
  const spin = await context(REPO_ID, 'spinning a gizmo at a rate');
  t.is(spin.status, 200);
  t.is(occurrences(spin.body.snippets, SPIN_PROSE), 1, JSON.stringify(spin.body.snippets));
  t.regex(JSON.stringify(spin.body.snippets), /gizmo\.spin\(\{ rate: 3 \}\)/);
  // Install is on both sides: served once, the repository's copy (it has the example).
  const install = await context(REPO_ID, 'install the gizmo package');
  t.is(occurrences(install.body.snippets, INSTALL_PROSE), 1, JSON.stringify(install.body.snippets));
  t.regex(JSON.stringify(install.body.snippets), /npm install gizmo --save/);
});

test.serial("the website's old id redirects: context, library search and MCP serve the merged library and say so", async (t) => {
  const res = await context(websiteId, 'calibrate the flux capacitor');
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.body.provenance.libraryId, REPO_ID);
  t.is(res.body.provenance.redirectedFrom, websiteId);
  t.regex(JSON.stringify(res.body.snippets), /flux capacitor of a gizmo drifts/);
  const txt = await app.request.get('/v2/context').set(auth()).query({ libraryId: websiteId, query: 'calibrate the flux capacitor' });
  t.is(txt.status, 200);
  t.regex(txt.text.split('\n')[0], new RegExp(`${websiteId.replace(/[.]/g, '\\.')} is merged into ${REPO_ID}`));

  const search = await app.request.get('/v2/libs/search').set(auth()).query({ libraryName: 'gizmo' });
  t.is(search.status, 200, JSON.stringify(search.body));
  const ids = search.body.results.map((r: { id: string }) => r.id);
  t.false(ids.includes(websiteId), JSON.stringify(ids));
  t.is(ids.filter((id: string) => id === REPO_ID).length, 1);

  const server = await listenApp(app);
  try {
    const call = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${admin}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'query-docs', arguments: { libraryId: websiteId, query: 'calibrate the flux capacitor' } },
      }),
    });
    const text = ((await call.json()) as { result: { content: Array<{ text: string }> } }).result.content[0].text;
    t.regex(text, /is merged into \/acme\/gizmo/);
    t.regex(text, /flux capacitor of a gizmo drifts/);
  } finally {
    await server.close();
  }
  // Managing the old id still addresses the source itself (its own record, its own refresh).
  const lib = await app.request.get(`/v2/libraries${websiteId}`).set(auth());
  t.is(lib.status, 200);
  t.is(lib.body.source, 'website');
});

test.serial('a second merge of the same source elsewhere, or of a merged library, is refused', async (t) => {
  createRepo(git.root, 'acme/other', [{ files: { 'README.md': '# Other\n\nAnother library entirely, about sprockets.\n' } }]);
  const other = await app.request
    .post('/v2/add/repo/github')
    .set(auth())
    .send({ docsRepoUrl: `${git.url}/acme/other` });
  t.is(other.status, 200, JSON.stringify(other.body));
  const twice = await merge('/acme/other', { source: websiteId });
  t.is(twice.status, 400);
  t.regex(twice.body.message, /already a source of \/acme\/gizmo/);
  const chain = await merge('/acme/other', { source: REPO_ID });
  t.is(chain.status, 400);
  t.regex(chain.body.message, /merged library itself/);
  const into = await merge(websiteId, { source: '/acme/other' });
  t.is(into.status, 400);
  t.regex(into.body.message, /itself a source of/);
});

test.serial('deleting a source takes it out of the merged library; deleting the merged library deletes its sources', async (t) => {
  const del = await app.request.delete(`/v2/libraries${websiteId}`).set(auth());
  t.is(del.status, 200, JSON.stringify(del.body));
  t.deepEqual((await app.services.libraries.get(REPO_ID, { fresh: true }))?.mergedSources ?? [], []);
  const polish = await context(REPO_ID, 'how do I polish the chrome housing');
  t.false(/dry cloth/.test(JSON.stringify(polish.body)));
  t.is((await context(REPO_ID, 'calibrate the flux capacitor')).status, 200);

  // Merge /acme/other in, then delete /acme/gizmo: both go, snippets included.
  t.is((await merge(REPO_ID, { source: '/acme/other' })).status, 200);
  t.is((await app.request.delete(`/v2/libraries${REPO_ID}`).set(auth())).status, 200);
  t.is(await app.services.libraries.get('/acme/other', { fresh: true }), null);
  t.is((await app.request.get('/v2/context').set(auth()).query({ libraryId: '/acme/other', query: 'sprockets' })).status, 404);
});
