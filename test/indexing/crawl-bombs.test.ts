/**
 * The crawl bombs of issue 32 end to end, through the API and the default worker (jobs in
 * their own process, crawls in a lane of their own): while one team's website add is held
 * by a site's Crawl-delay, another team's Git add completes in its own time; a cancel
 * reaches a crawl that is still reading sitemaps (before, seeding went on for minutes after
 * the cancel answered "cancelled").
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

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
const links = (n: number) => Array.from({ length: n }, (_, i) => `<a href="/slow/p${i}.html">${i}</a>`).join(' ');
const SLOW_SITEMAPS = 50;

test.before(async () => {
  const files: Record<string, string> = {
    '/robots.txt': `User-agent: *\nCrawl-delay: 2\n${Array.from({ length: SLOW_SITEMAPS }, (_, n) => `Sitemap: /maps/${n}.xml`).join('\n')}\n`,
    '/slow/index.html': page('Slow', links(60)),
  };
  for (let i = 0; i < 60; i++) files[`/slow/p${i}.html`] = page(`Page ${i}`, `<p>Page ${i} of a site that asks for two seconds between requests.</p>`);
  // Each sitemap answers after a second: seeding 50 of them takes about a minute.
  const handlers: Record<string, (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void> = {};
  for (let n = 0; n < SLOW_SITEMAPS; n++) {
    handlers[`/maps/${n}.xml`] = (req, res) =>
      void setTimeout(
        () =>
          res
            .writeHead(200, { 'content-type': 'application/xml' })
            .end(
              `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${req.headers.host}/slow/p${n}.html</loc></url></urlset>`,
            ),
        1000,
      );
  }
  site = await startWebSite({ files, handlers });
  git = await startGitServer();
  createRepo(git.root, 'acme/widgets', [
    {
      files: {
        'README.md': '# Widgets\n\nWidgets turn.\n',
        'docs/start.md': '# Start\n\n## Install\n\nInstall widgets with npm before anything else.\n\n```bash\nnpm install widgets\n```\n',
      },
    },
  ]);
  app = await createTestApp({
    WEB_ALLOWED_HOSTS: '127.0.0.1',
    WEB_CRAWL_DELAY_MS: '0',
    GITHUB_BASE_URL: git.url,
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
    ADD_WAIT_SECONDS: '0',
  });
  admin = await adminKey(app);
});

test.after.always(async () => {
  await app?.close();
  await site?.close();
  await git?.close();
});

const waitFor = async (check: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
};

test.serial("one team's slow crawl does not hold another team's Git add; a cancel stops the crawl while it seeds", async (t) => {
  const teamA = await memberKey(app, { teamPlan: 'pro', owner: true, username: 'crawler-a' });
  const teamB = await memberKey(app, { teamPlan: 'pro', owner: true, username: 'builder-b' });
  // Team A: a site whose robots.txt names 50 sitemaps and asks for 2 s between requests.
  const crawl = await app.request
    .post('/v2/add/website')
    .set('authorization', `Bearer ${teamA.key}`)
    .send({ url: `${site.origin}/slow/`, scope: 'subpages', maxPages: 60, private: true });
  t.is(crawl.status, 504, JSON.stringify(crawl.body));
  const crawlJobId = /GET \/v2\/jobs\/(\S+?)\./.exec(crawl.body.message)?.[1] ?? '';
  t.true(await waitFor(async () => site.requests.some((q) => q.url.startsWith('/maps/')), 30_000), 'the crawl is seeding');

  // Team B's Git add is not queued behind it.
  const started = Date.now();
  const add = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${teamB.key}`)
    .send({ docsRepoUrl: `${git.url}/acme/widgets` });
  t.is(add.status, 504);
  const addJobId = /GET \/v2\/jobs\/(\S+?)\./.exec(add.body.message)?.[1] ?? '';
  const done = await app.services.jobs.waitFor(addJobId, 60_000);
  t.is(done?.state, 'finalized', done?.error ?? '');
  const addSeconds = (Date.now() - started) / 1000;
  t.log(`the other team's Git add took ${addSeconds.toFixed(1)} s while the crawl ran`);
  t.true(addSeconds < 45);
  t.not((await app.services.jobs.get(crawlJobId))?.state, 'finalized', 'the crawl is still going');

  // Cancel the crawl: it stops reading sitemaps within seconds.
  const cancel = await app.request.delete(`/v2/jobs/${crawlJobId}`).set('authorization', `Bearer ${admin}`);
  t.is(cancel.status, 200, JSON.stringify(cancel.body));
  t.is((await app.services.jobs.waitFor(crawlJobId, 15_000))?.state, 'cancelled');
  await new Promise((r) => setTimeout(r, 6000));
  const seen = site.requests.length;
  await new Promise((r) => setTimeout(r, 3000));
  t.is(site.requests.length, seen, 'nothing is fetched after the cancel');
});
