/**
 * The scheduler at rest (real stores): once a tick has scanned the catalogue, later ticks
 * read one small document (the catalogue's generation) until something changed or the next
 * check is due, so an idle installation does not read every library every minute.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { countCalls, seedLibrary } from '../helpers';

let app: TestApp;
const HOUR = 3_600_000;

test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off', REFRESH_DEFAULT_HOURS: 'github=24' });
  await seedLibrary(app, '/rest/one', {
    'README.md': '# One\n\nThe one library makes small parts for web pages.\n\n## Usage\n\n```js\nimport { one } from "one";\none();\n```\n',
  });
  await app.services.libraries.modify('/rest/one', () => ({ cloneUrl: 'https://git.example.test/rest/one.git' }));
  // Imported from a bundle: no clone URL, nothing a refresh could fetch.
  await seedLibrary(app, '/rest/bundled', {
    'README.md': '# Bundled\n\nA library imported from a bundle.\n\n## Usage\n\n```js\nimport { bundled } from "bundled";\nbundled();\n```\n',
  });
});
test.after.always(async () => {
  await app?.close();
});

test.serial('ticks skip the scan while nothing changed, is due or pending; a change or a due check scans again', async (t) => {
  const counter = countCalls(app.services.libraries, 'scan');
  try {
    const now = Date.now();
    const minute = (n: number) => new Date(now + n * 60_000 + 1);
    t.true((await app.lifecycle.scheduler.tick(minute(1))).leader);
    t.is(counter.calls(), 1, 'the first tick scans');
    await app.lifecycle.scheduler.tick(minute(2));
    await app.lifecycle.scheduler.tick(minute(3));
    t.is(counter.calls(), 1, 'nothing changed, nothing due: no scan');
    await app.services.libraries.modify('/rest/one', () => ({ aliases: ['uno'] }));
    await app.lifecycle.scheduler.tick(minute(4));
    t.is(counter.calls(), 2, 'a library changed: the next tick scans');
    await app.lifecycle.scheduler.tick(minute(5));
    t.is(counter.calls(), 2);
    const due = await app.lifecycle.scheduler.tick(new Date(now + 25 * HOUR));
    t.is(counter.calls(), 3, 'its check came due: scanned');
    t.deepEqual(due.enqueued, ['/rest/one'], 'and the refresh was enqueued; not for a library with no source to fetch (a bundle import)');
  } finally {
    counter.restore();
  }
});

test.serial('while a check is pending, ticks read its job, not the catalogue; the job ended, the next tick records it', async (t) => {
  const start = Date.now() + 50 * HOUR;
  const minute = (n: number) => new Date(start + n * 60_000 + 1);
  let pending = (await app.services.libraries.get('/rest/one'))?.check?.pendingJobId;
  if (!pending) {
    await app.lifecycle.scheduler.tick(minute(0));
    pending = (await app.services.libraries.get('/rest/one'))?.check?.pendingJobId;
  }
  t.truthy(pending, 'a refresh is pending (no worker runs it)');
  // The scan after the enqueue (the enqueue moved the catalogue's generation).
  await app.lifecycle.scheduler.tick(minute(1));
  const scans = countCalls(app.services.libraries, 'scan');
  const stateReads = countCalls(app.services.jobs, 'states');
  const jobReads = countCalls(app.services.jobs, 'get');
  try {
    await app.lifecycle.scheduler.tick(minute(2));
    await app.lifecycle.scheduler.tick(minute(3));
    t.is(scans.calls(), 0, 'the job is queued still: no scan');
    t.is(stateReads.calls(), 2, "one read of the pending job's state per tick");
    t.is(jobReads.calls(), 0, 'and not of the whole job (its log)');
    await app.services.jobs.cancel(pending!, 'test');
    const ended = await app.lifecycle.scheduler.tick(minute(4));
    t.is(scans.calls(), 1, 'its job ended: scanned');
    t.deepEqual(ended.recorded, ['/rest/one'], 'and its outcome recorded');
    const check = (await app.services.libraries.get('/rest/one'))?.check;
    t.not(check?.pendingJobId, pending, 'that job is no longer pending (in this clock, 50 hours on, its back-off is over and the next check was enqueued)');
    t.regex(check?.lastError ?? '', /cancelled/);
  } finally {
    scans.restore();
    stateReads.restore();
    jobReads.restore();
  }
});
