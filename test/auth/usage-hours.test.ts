/**
 * Usage for charts (issue 31): counts per UTC hour inside the day rows (before and after a
 * flush), and the dashboard's playground labelled apart from API traffic — only from a
 * signed-in session, so a key cannot pass its traffic off as the playground.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, adminSession, bearer } from './fixtures';
import { seedLibrary } from '../helpers';

let app: TestApp;
let key: string;
test.before(async () => {
  app = await createTestApp();
  key = await adminKey(app);
});
test.after.always(async () => {
  await app?.close();
});

test("hourly buckets and the dashboard's playground counted apart (only from a signed-in session)", async (t) => {
  const lib = `/acme/hours${Date.now().toString(36)}`;
  await seedLibrary(app, lib, { 'docs/a.md': '# Hours\n\n## Counting\n\nRequests are counted per hour for charts of recent usage.\n' });
  const ask = (headers: Record<string, string>) =>
    app.request.get('/v2/context').set(headers).query({ libraryId: lib, query: 'counted per hour', type: 'json' });
  const session = await adminSession(app);
  t.is((await ask({ ...session, 'X-Shelfmark-Channel': 'playground' })).status, 200);
  t.is((await ask({ ...session, 'X-Shelfmark-Channel': 'playground' })).status, 200);
  t.is((await ask({ ...bearer(key), 'X-Shelfmark-Channel': 'playground' })).status, 200, 'a key cannot pass its traffic off as the playground');
  const read = async () => (await app.request.get('/v2/libs/metrics').set(bearer(key)).query({ libraryId: lib, days: 1, bucket: 'hour' })).body;
  const check = (body: { totals: { byChannel: Record<string, number> }; perHour: Array<{ hour: string; api: number; playground: number }> }, when: string) => {
    t.like(body.totals.byChannel, { api: 1, playground: 2 }, when);
    t.is(body.perHour.length, 24, when);
    t.is(body.perHour[23].hour, new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString(), `${when}: the last bucket is this hour`);
    // The requests were made moments ago: in this hour's bucket (or the one before, should the hour have just turned).
    const recent = body.perHour.slice(22);
    t.deepEqual([recent.reduce((n, h) => n + h.api, 0), recent.reduce((n, h) => n + h.playground, 0)], [1, 2], when);
    t.is(
      body.perHour.slice(0, 22).reduce((n, h) => n + h.api + h.playground, 0),
      0,
      when,
    );
  };
  check(await read(), 'unwritten');
  await app.services.usage.flush();
  check(await read(), 'stored');
  const summary = (await app.request.get('/v2/admin/usage').set(bearer(key)).query({ days: 2, bucket: 'hour' })).body;
  t.is(summary.perHour.length, 48);
  t.true(summary.perHour[46].playground + summary.perHour[47].playground >= 2);
  const bad = await app.request.get('/v2/admin/usage').set(bearer(key)).query({ days: 30, bucket: 'hour' });
  t.is(bad.status, 400);
  t.regex(bad.body.message, /bucket=hour needs days of at most 7/);
});
