/**
 * Scheduled refreshes against the real stores and a local Git server: the schedule through
 * `GET/PATCH /v2/libraries/{id}`, two instances (two Services on the same stores) racing
 * over due checks, and a failing library backing off with its reason kept.
 */
import fs from 'node:fs';
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, commitToRepo, type GitServer } from '../git-server';
import { adminKey, servedSnippets } from '../helpers';
import { createServices, type Lifecycle } from '../../src/services';
import { createLogger } from '../../src/logger';

let git: GitServer;
let app: TestApp;
let second: Lifecycle;
let key: string;
const HOUR = 3_600_000;
const LIBS = ['acme/one', 'acme/two', 'acme/three'];

const doc = (name: string) =>
  `# ${name}\n\n${name} guide for widgets.\n\n## Use it\n\nCall \`${name}()\` to start:\n\n\`\`\`js\n${name}({ size: 3 });\n\`\`\`\n`;

test.before(async () => {
  git = await startGitServer();
  for (const lib of LIBS) createRepo(git.root, lib, [{ files: { 'README.md': doc(lib.split('/')[1]) } }]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url, GIT_ALLOWED_URL_PREFIXES: `${git.url}/`, REFRESH_DEFAULT_HOURS: 'github=0' });
  // A second instance on the same stores (no worker: it only schedules).
  second = (await createServices(app.services.config, createLogger('silent'))).lifecycle;
  key = await adminKey(app);
  for (const lib of LIBS) {
    const res = await app.request
      .post('/v2/add/repo/github')
      .set('authorization', `Bearer ${key}`)
      .send({ docsRepoUrl: `${git.url}/${lib}` });
    if (res.status !== 200) throw new Error(`add ${lib}: ${res.status} ${JSON.stringify(res.body)}`);
  }
});

test.after.always(async () => {
  await second?.close();
  await app?.close();
  await git?.close();
});

const scheduledJobs = async (libraryId: string) => (await app.services.jobs.list({ libraryId, limit: 100 })).filter((j) => j.trigger === 'schedule');

test.serial('GET shows the schedule; PATCH sets hours, "never" or "default" and refuses anything else', async (t) => {
  const auth = { authorization: `Bearer ${key}` };
  let res = await app.request.get('/v2/libraries/acme/one').set(auth);
  t.is(res.status, 200);
  t.deepEqual(
    res.body.schedule,
    { mode: 'default', everyHours: null, lastCheckedAt: null, nextCheckAt: null, failures: 0, lastError: null },
    'the default for github is never here',
  );

  res = await app.request.patch('/v2/libraries/acme/one').set(auth).send({ schedule: 6 });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.body.schedule.mode, 'every');
  t.is(res.body.schedule.everyHours, 6);
  const built = Date.parse(res.body.lastUpdateDate);
  t.true(Math.abs(Date.parse(res.body.schedule.nextCheckAt) - (built + 6 * HOUR)) < 60_000, 'next check six hours after the last build');

  res = await app.request.get('/v2/libraries/acme/one').set(auth);
  t.is(res.body.schedule.everyHours, 6, 'GET carries the stored schedule');

  for (const bad of ['sometimes', 0, -3, 1.5, 9000, null, { hours: 2 }]) {
    const r = await app.request.patch('/v2/libraries/acme/one').set(auth).send({ schedule: bad });
    t.is(r.status, 400, `schedule ${JSON.stringify(bad)}`);
    t.is(r.body.error, 'validation_error');
    t.regex(r.body.message, /schedule/);
  }
  res = await app.request.patch('/v2/libraries/acme/one').set(auth).send({ schedule: 'never' });
  t.is(res.body.schedule.mode, 'never');
  t.is(res.body.schedule.nextCheckAt, null);
  res = await app.request.patch('/v2/libraries/acme/one').set(auth).send({ schedule: 'default' });
  t.is(res.body.schedule.mode, 'default');
  t.is(res.body.schedule.everyHours, null);
  res = await app.request.patch('/v2/libraries/acme/nope').set(auth).send({ schedule: 2 });
  t.is(res.status, 404);
  t.is(res.body.error, 'library_not_found');
});

test.serial('two instances with due schedules never refresh the same library twice', async (t) => {
  const auth = { authorization: `Bearer ${key}` };
  for (const lib of LIBS) {
    const r = await app.request.patch(`/v2/libraries/${lib}`).set(auth).send({ schedule: 1 });
    t.is(r.status, 200);
  }
  const later = new Date(Date.now() + 2 * HOUR);
  // The race is over one due check each. The worker waits until it is over: a refresh that
  // finished meanwhile would make its library due again at this simulated hour (its next
  // check is an hour after it ended), and a second refresh would then be right, not a race.
  await app.lifecycle.worker?.stop();
  // Same slot: one lease holder.
  const ticks = await Promise.all([app.lifecycle.scheduler.tick(later), second.scheduler.tick(later)]);
  t.is(ticks.filter((r) => r.leader).length, 1, 'one instance holds the tick');
  // Past the lease: both instances race over the same due checks, several times each.
  const rounds = await Promise.all([0, 1, 2, 3].flatMap(() => [app.lifecycle.scheduler.runDue(later), second.scheduler.runDue(later)]));
  const enqueued = [...ticks.flatMap((r) => r.enqueued), ...rounds.flatMap((r) => r.enqueued)];
  t.deepEqual([...enqueued].sort(), LIBS.map((l) => `/${l}`).sort(), 'each due library enqueued once in all');
  app.lifecycle.worker?.start();
  for (const lib of LIBS) {
    const jobs = await scheduledJobs(`/${lib}`);
    t.is(jobs.length, 1, `${lib}: one scheduled refresh`);
    const done = await app.services.jobs.waitFor(jobs[0]._id, 60_000);
    t.is(done?.state, 'finalized');
  }
  // The next ticks record the outcomes once and enqueue nothing (the next check is an hour
  // after the refresh ended).
  const now = new Date();
  const after = await Promise.all([app.lifecycle.scheduler.runDue(now), second.scheduler.runDue(now)]);
  t.deepEqual(after.flatMap((r) => r.recorded).sort(), LIBS.map((l) => `/${l}`).sort());
  t.deepEqual(
    after.flatMap((r) => r.enqueued),
    [],
  );
  const res = await app.request.get('/v2/libraries/acme/two').set(auth);
  t.truthy(res.body.schedule.lastCheckedAt);
  t.is(Date.parse(res.body.schedule.nextCheckAt) - Date.parse(res.body.schedule.lastCheckedAt), HOUR);
  t.is(res.body.jobs[0].trigger, 'schedule', 'the job says why it ran');
  for (const lib of LIBS) t.is((await scheduledJobs(`/${lib}`)).length, 1);
});

test.serial('a scheduled refresh picks up a new commit', async (t) => {
  commitToRepo(`${git.root}/acme/three.git`, { 'docs/new.md': doc('freshly') });
  const lib = await app.services.libraries.get('/acme/three', { fresh: true });
  const due = new Date(new Date(lib?.check?.nextCheckAt ?? 0).getTime() + 1000);
  const r = await app.lifecycle.scheduler.runDue(due);
  t.true(r.enqueued.includes('/acme/three'));
  const jobs = await scheduledJobs('/acme/three');
  t.is(jobs.length, 2);
  t.is((await app.services.jobs.waitFor(jobs[0]._id, 60_000))?.state, 'finalized');
  const docs = await servedSnippets(app, '/acme/three');
  t.true(docs.some((d) => d.path === 'docs/new.md'));
});

/** Lets every queued refresh end, then records their outcomes. */
async function settle(): Promise<void> {
  const end = Date.now() + 60_000;
  while ((await app.services.jobs.countOpen()) > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  await app.lifecycle.scheduler.runDue(new Date());
}

test.serial('a failing library backs off and its state says why', async (t) => {
  await settle();
  fs.rmSync(`${git.root}/acme/two.git`, { recursive: true, force: true });
  let at = new Date(Date.now() + 4 * HOUR);
  const waits: number[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await app.lifecycle.scheduler.runDue(at);
    t.true(r.enqueued.includes('/acme/two'), `attempt ${i + 1} enqueued`);
    const jobs = await scheduledJobs('/acme/two');
    t.is((await app.services.jobs.waitFor(jobs[0]._id, 60_000))?.state, 'failed');
    await settle();
    const lib = await app.services.libraries.get('/acme/two', { fresh: true });
    t.is(lib?.check?.failures, i + 1);
    t.regex(lib?.check?.lastError ?? '', /does not exist or is not reachable/);
    const next = new Date(lib?.check?.nextCheckAt ?? 0);
    waits.push(next.getTime() - new Date(lib?.check?.lastCheckedAt ?? 0).getTime());
    // Not due before the backoff has passed.
    const early = await app.lifecycle.scheduler.runDue(new Date(next.getTime() - 1000));
    t.false(early.enqueued.includes('/acme/two'));
    at = new Date(next.getTime() + 1000);
  }
  t.deepEqual(waits, [HOUR, 2 * HOUR], 'the wait doubles with each failure');
  const res = await app.request.get('/v2/libraries/acme/two').set({ authorization: `Bearer ${key}` });
  t.is(res.body.schedule.failures, 2);
  t.regex(res.body.schedule.lastError, /not reachable/);
  t.is(res.body.state, 'finalized', 'the served docs stay');
});
