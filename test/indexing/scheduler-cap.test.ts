/**
 * A herd of due checks (real stores): after a bulk import every library may be due at once;
 * a tick enqueues at most SCHEDULE_MAX_PER_TICK refreshes and the next ticks take the rest.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { countCalls, seedLibrary } from '../helpers';

let app: TestApp;
const HOUR = 3_600_000;
const KEYS = ['/herd/one', '/herd/two', '/herd/three'];

test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off', REFRESH_DEFAULT_HOURS: 'github=24', SCHEDULE_MAX_PER_TICK: '2' });
  for (const key of KEYS) {
    const name = key.split('/')[2];
    await seedLibrary(app, key, {
      'README.md': `# ${name}\n\nThe ${name} library makes small parts for web pages.\n\n## Usage\n\n\`\`\`js\nimport { ${name} } from "${name}";\n${name}();\n\`\`\`\n`,
    });
    await app.services.libraries.modify(key, () => ({ cloneUrl: `https://git.example.test${key}.git` }));
  }
});
test.after.always(async () => {
  await app?.close();
});

test.serial('a tick enqueues at most the configured number of due refreshes; the next tick enqueues the rest, and none twice', async (t) => {
  const later = Date.now() + 25 * HOUR;
  const first = await app.lifecycle.scheduler.tick(new Date(later));
  t.true(first.leader);
  t.is(first.enqueued.length, 2, 'two of the three due checks');
  const second = await app.lifecycle.scheduler.tick(new Date(later + 60_000));
  t.is(second.enqueued.length, 1, 'the one left, at the next tick (not skipped as "nothing due")');
  t.deepEqual([...first.enqueued, ...second.enqueued].sort(), [...KEYS].sort());
  const third = await app.lifecycle.scheduler.tick(new Date(later + 120_000));
  t.deepEqual(third.enqueued, [], 'each was enqueued once');
});

test.serial('ticks read the states of all pending checks at once, and a whole job only once it ended', async (t) => {
  const later = Date.now() + 25 * HOUR + 10 * 60_000;
  const pending = await Promise.all(KEYS.map(async (key) => (await app.services.libraries.get(key))?.check?.pendingJobId));
  t.true(
    pending.every((id) => typeof id === 'string'),
    'the three refreshes are pending (no worker runs them)',
  );
  const stateReads = countCalls(app.services.jobs, 'states');
  const jobReads = countCalls(app.services.jobs, 'get');
  try {
    await app.lifecycle.scheduler.tick(new Date(later));
    await app.lifecycle.scheduler.tick(new Date(later + 60_000));
    t.is(stateReads.calls(), 2, 'one read of the three states per tick');
    t.is(jobReads.calls(), 0, 'no job read whole while all are queued');
    await app.services.jobs.cancel(pending[0]!, 'test');
    const before = jobReads.calls();
    const ended = await app.lifecycle.scheduler.tick(new Date(later + 120_000));
    t.deepEqual(ended.recorded, [KEYS[0]], 'the ended check is recorded');
    t.is(jobReads.calls() - before, 1, 'from the one job that ended, read whole');
  } finally {
    stateReads.restore();
    jobReads.restore();
  }
});
