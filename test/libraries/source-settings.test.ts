/**
 * A library's source settings change only through PATCH /v2/libraries/{id} (sourceOptions):
 * admins for a public copy, the team's owners for its copy; and they are stored when the
 * build with them publishes. Before (issue 32), any member re-adding an admin's public
 * website with maxPages 1 shrank it for everyone, re-adding a public llms.txt with another
 * URL re-pointed it, a public repository was rebuilt with the member's options, and the
 * options were stored before the job ran, so they stayed when it failed.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, memberKey } from '../helpers';
import { startWebSite, type WebSite } from '../web-site';
import { createRepo, startGitServer, type GitServer } from '../git-server';

let site: WebSite;
let git: GitServer;
let app: TestApp;
let admin: string;
let member: string;

const page = (title: string, body: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`;
const section = (name: string) =>
  `<h2>Using ${name}</h2><p>The ${name} call turns widgets into gadgets when it is given a rate.</p><pre><code class="language-js">widgets.${name}({ rate: 3 });</code></pre>`;

test.before(async () => {
  site = await startWebSite({
    files: {
      '/docs/index.html': page('Docs', section('index'), ['a.html', 'b.html', 'c.html']),
      '/docs/a.html': page('A', section('alpha')),
      '/docs/b.html': page('B', section('beta')),
      '/docs/c.html': page('C', section('gamma')),
      '/llms.txt': '# Widgets\n\n- [A](/docs/a.html): alpha\n',
      '/llms-full.txt': '# Widgets\n\n## Everything\n\nThe whole documentation of widgets, for another purpose entirely.\n',
    },
  });
  git = await startGitServer();
  createRepo(git.root, 'acme/widgets', [
    {
      files: {
        'README.md': '# Widgets\n\nWidgets turn.\n',
        'docs/start.md': `# Start\n\n## Install\n\nInstall widgets with npm before anything else.\n\n\`\`\`bash\nnpm install widgets\n\`\`\`\n`,
      },
    },
  ]);
  app = await createTestApp({ WEB_ALLOWED_HOSTS: '127.0.0.1', WEB_CRAWL_DELAY_MS: '0', GITHUB_BASE_URL: git.url, RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  admin = await adminKey(app);
  member = (await memberKey(app, { username: 'plain-member' })).key;
});

test.after.always(async () => {
  await app?.close();
  await site?.close();
  await git?.close();
});

const as = (key: string) => ({ authorization: `Bearer ${key}` });
const webId = () => `/websites/127.0.0.1-${site.port}_docs`;
const library = async (id: string) => (await app.request.get(`/v2/libraries${id}`).set(as(admin))).body;
const pagesServed = async (id: string) => {
  const lib = await library(id);
  return (lib.crawl?.pagesFetched ?? 0) + (lib.crawl?.pagesUnchanged ?? 0);
};

test.serial("a member cannot shrink an admin's public website by adding it again; an unchanged add rebuilds it with its settings", async (t) => {
  const add = await app.request
    .post('/v2/add/website')
    .set(as(admin))
    .send({ url: `${site.origin}/docs/`, maxPages: 50 });
  t.is(add.status, 200, JSON.stringify(add.body));
  t.is(await pagesServed(webId()), 4);

  const shrink = await app.request
    .post('/v2/add/website')
    .set(as(member))
    .send({ url: `${site.origin}/docs/`, maxPages: 1 });
  t.is(shrink.status, 409, JSON.stringify(shrink.body));
  t.is(shrink.body.error, 'conflict');
  t.regex(shrink.body.message, /maxPages.*PATCH \/v2\/libraries\/websites/);
  t.is((await library(webId())).sourceOptions.maxPages, 50, 'nothing stored');
  const headers = await app.request
    .post('/v2/add/website')
    .set(as(member))
    .send({ url: `${site.origin}/docs/`, headers: { cookie: 'mine=1' } });
  t.is(headers.status, 409, 'headers are settings too');

  // The same add with no other settings is a rebuild with the stored ones (it used to answer 404).
  const again = await app.request
    .post('/v2/add/website')
    .set(as(member))
    .send({ url: `${site.origin}/docs/` });
  t.is(again.status, 200, JSON.stringify(again.body));
  const refresh = await app.request.post('/v2/refresh').set(as(member)).send({ libraryName: webId() });
  t.is(refresh.status, 200, JSON.stringify(refresh.body));
  t.is(await pagesServed(webId()), 4, 'still every page for everyone');
});

test.serial('a member cannot re-point a public llms.txt to another URL of the same id', async (t) => {
  const add = await app.request
    .post('/v2/add/llmstxt')
    .set(as(admin))
    .send({ url: `${site.origin}/llms.txt` });
  t.is(add.status, 200, JSON.stringify(add.body));
  const id = add.body.libraryName;
  const repoint = await app.request
    .post('/v2/add/llmstxt')
    .set(as(member))
    .send({ url: `${site.origin}/llms-full.txt` });
  t.is(repoint.status, 409, JSON.stringify(repoint.body));
  t.is((await library(id)).sourceOptions.url, `${site.origin}/llms.txt`);
});

test.serial('a member cannot rebuild a public repository with their options', async (t) => {
  const add = await app.request
    .post('/v2/add/repo/github')
    .set(as(admin))
    .send({ docsRepoUrl: `${git.url}/acme/widgets` });
  t.is(add.status, 200, JSON.stringify(add.body));
  const before = (await app.services.jobs.list({ libraryId: '/acme/widgets' })).length;
  const res = await app.request
    .post('/v2/add/repo/github')
    .set(as(member))
    .send({ docsRepoUrl: `${git.url}/acme/widgets`, skipVersionFiltering: true });
  t.is(res.status, 409, JSON.stringify(res.body));
  t.is((await app.services.jobs.list({ libraryId: '/acme/widgets' })).length, before, "no job with the member's options");
  t.deepEqual((await library('/acme/widgets')).sourceOptions, { source: 'git', skipVersionFiltering: false, generateDocs: false });
});

test.serial('PATCH sourceOptions: admins for a public library; stored when the build publishes, kept as they were when it fails', async (t) => {
  const refused = await app.request
    .patch(`/v2/libraries${webId()}`)
    .set(as(member))
    .send({ sourceOptions: { maxPages: 1 } });
  t.is(refused.status, 403, JSON.stringify(refused.body));

  const change = await app.request
    .patch(`/v2/libraries${webId()}`)
    .set(as(admin))
    .send({ sourceOptions: { maxPages: 2 } });
  t.is(change.status, 200, JSON.stringify(change.body));
  t.is(change.body.sourceOptions.maxPages, 50, 'not stored before the build');
  t.truthy(change.body.jobId);
  t.is((await app.services.jobs.waitFor(change.body.jobId, 60_000))?.state, 'finalized');
  t.is((await library(webId())).sourceOptions.maxPages, 2);
  t.is(await pagesServed(webId()), 2);

  const failing = await app.request
    .patch(`/v2/libraries${webId()}`)
    .set(as(admin))
    .send({ sourceOptions: { include: ['/nowhere/**'] } });
  t.is(failing.status, 200, JSON.stringify(failing.body));
  t.is((await app.services.jobs.waitFor(failing.body.jobId, 60_000))?.state, 'failed');
  t.deepEqual((await library(webId())).sourceOptions.include, [], 'a failed build changes nothing');
  t.is(await pagesServed(webId()), 2);

  const other = await app.request
    .patch(`/v2/libraries${webId()}`)
    .set(as(admin))
    .send({ sourceOptions: { url: 'https://elsewhere.example/docs/' } });
  t.is(other.status, 400);
  t.is(other.body.field, 'sourceOptions.url');
  const wrongKind = await app.request
    .patch('/v2/libraries/acme/widgets')
    .set(as(admin))
    .send({ sourceOptions: { maxPages: 3 } });
  t.is(wrongKind.status, 400);
  t.is(wrongKind.body.field, 'sourceOptions.maxPages');
});

test.serial("a team's owners change their copy's source settings, and only those; its members cannot", async (t) => {
  const owner = await memberKey(app, { teamPlan: 'pro', owner: true, username: 'team-owner' });
  const mate = await app.services.accounts.createUser({ username: 'team-mate', password: 'password123', role: 'member' });
  await app.services.accounts.addMember(owner.teamId ?? '', mate._id, 'member');
  const mateKey = (await app.services.keys.create(mate._id, 'mate')).value;
  const add = await app.request
    .post('/v2/add/website')
    .set(as(owner.key))
    .send({ url: `${site.origin}/docs/`, maxPages: 10, private: true });
  t.is(add.status, 200, JSON.stringify(add.body));

  const byMate = await app.request
    .patch(`/v2/libraries${webId()}`)
    .set(as(mateKey))
    .send({ sourceOptions: { maxPages: 1 } });
  t.is(byMate.status, 403, JSON.stringify(byMate.body));
  const trust = await app.request.patch(`/v2/libraries${webId()}`).set(as(owner.key)).send({ trustScore: 10 });
  t.is(trust.status, 403);
  const change = await app.request
    .patch(`/v2/libraries${webId()}`)
    .set(as(owner.key))
    .send({ sourceOptions: { maxPages: 3 } });
  t.is(change.status, 200, JSON.stringify(change.body));
  t.is((await app.services.jobs.waitFor(change.body.jobId, 60_000))?.state, 'finalized');
  const copy = (await app.request.get(`/v2/libraries${webId()}`).set(as(owner.key))).body;
  t.true(copy.private);
  t.is(copy.sourceOptions.maxPages, 3);
  t.is((await library(webId())).sourceOptions.maxPages, 2, 'the public copy is untouched');
});
