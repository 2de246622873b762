import test, { type ExecutionContext } from 'ava';
import { createTestApp, dropTestStores, type TestApp } from '../harness';
import { adminKey, bearer, makeUser, type TestUser } from './fixtures';
import { MAX_QUERIES_PER_DAY, UsageService, utcDate } from '../../src/auth/usage';
import { queryPartition, UsageStore } from '../../src/store/usage-store';
import { usageDailyModel, usageQueryModel } from '../../src/store/models/usage';
import { testLibrary } from '../helpers';

let app: TestApp;
let admin: string;
let member: TestUser;
test.before(async () => {
  app = await createTestApp();
  admin = await adminKey(app);
  member = await makeUser(app);
});
test.after.always(async () => {
  await app?.close();
});

const metrics = (query: Record<string, string>, key = member.key) => app.request.get('/v2/libs/metrics').query(query).set(bearer(key));

test('requests per day per channel, tokens, totals and top queries', async (t) => {
  const { usage } = app.services;
  for (let i = 0; i < 3; i++) usage.record({ libraryId: '/koajs/koa', channel: 'api', tokens: 100, query: 'How do I write  middleware?' });
  usage.record({ libraryId: '/koajs/koa', channel: 'txt', tokens: 50, query: 'routing' });
  usage.record({ libraryId: '/koajs/koa', channel: 'mcp', tokens: 25, query: 'how do i write middleware?' });
  usage.record({ libraryId: '/other/lib', channel: 'api', tokens: 999, query: 'elsewhere' });
  const res = await metrics({ libraryId: '/koajs/koa', days: '7' });
  t.is(res.status, 200);
  t.is(res.body.libraryId, '/koajs/koa');
  t.is(res.body.days, 7);
  t.is(res.body.perDay.length, 7);
  const today = res.body.perDay[6];
  t.deepEqual(today, { date: utcDate(new Date()), api: 3, txt: 1, mcp: 1, playground: 0, tokens: 375 });
  t.deepEqual(res.body.perDay[0], { date: res.body.perDay[0].date, api: 0, txt: 0, mcp: 0, playground: 0, tokens: 0 });
  t.deepEqual(res.body.totals, { requests: 5, tokens: 375, byChannel: { api: 3, txt: 1, mcp: 1, playground: 0 } });
  t.deepEqual(res.body.topQueries, [
    { query: 'how do i write middleware?', count: 4 },
    { query: 'routing', count: 1 },
  ]);
  t.is((await metrics({ libraryId: '/koajs/koa/v2.0.0' })).body.totals.requests, 5, 'a versioned id counts for its library');
  t.is((await metrics({ libraryId: '/koajs/koa' })).body.days, 30, 'days defaults to 30');
});

test('validation: libraryId required, days 1-90, id shape', async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{}, 'validation_error'],
    [{ libraryId: '' }, 'validation_error'],
    [{ libraryId: '/a/b', days: '0' }, 'validation_error'],
    [{ libraryId: '/a/b', days: '91' }, 'validation_error'],
    [{ libraryId: '/a/b', days: 'week' }, 'validation_error'],
    [{ libraryId: 'react' }, 'invalid_library_id'],
  ];
  for (const [query, code] of cases) {
    const res = await metrics(query);
    t.is(res.status, 400, JSON.stringify(query));
    t.is(res.body.error, code);
  }
  t.regex((await metrics({})).body.message, /libraryId/);
  t.regex((await metrics({ libraryId: '/a/b', days: '91' })).body.message, /days/);
});

test('an unknown library answers zeros', async (t) => {
  const res = await metrics({ libraryId: '/never/used', days: '3' });
  t.is(res.status, 200);
  t.deepEqual(res.body.totals, { requests: 0, tokens: 0, byChannel: { api: 0, txt: 0, mcp: 0, playground: 0 } });
  t.deepEqual(res.body.topQueries, []);
  t.is(res.body.perDay.length, 3);
});

test("a private library's metrics are zeros for callers who cannot see it", async (t) => {
  const owner = await makeUser(app, { plan: 'pro' });
  await app.services.libraries.ensure(
    testLibrary('/acme/private-metrics', { title: 'p', branch: '', private: true, teamId: owner.teamId ?? null, trustScore: 5 }),
  );
  app.services.usage.record({ libraryId: '/acme/private-metrics', channel: 'api', tokens: 10, query: 'secret project' });
  t.is((await metrics({ libraryId: '/acme/private-metrics' }, owner.key)).body.totals.requests, 1);
  const outsider = await metrics({ libraryId: '/acme/private-metrics' });
  t.is(outsider.body.totals.requests, 0);
  t.deepEqual(outsider.body.topQueries, []);
});

test('queries are stored without secrets, and at most a bounded number per library-day', async (t) => {
  const { usage } = app.services;
  usage.record({ libraryId: '/leaky/lib', channel: 'api', tokens: 1, query: 'use key smk_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG with password=hunter22' });
  for (let i = 0; i < MAX_QUERIES_PER_DAY + 15; i++) usage.record({ libraryId: '/many/queries', channel: 'txt', tokens: 1, query: `question number ${i}` });
  await usage.flush();
  const month = queryPartition(utcDate(new Date()));
  const raw = await app.handles.mongo.collection(month).find({ libraryId: '/leaky/lib' }).toArray();
  t.is(raw.length, 1);
  t.false(JSON.stringify(raw).includes('abcdefghijklmnopqrstuvwxyz'));
  t.false(JSON.stringify(raw).includes('hunter22'));
  t.is(await app.handles.mongo.collection(month).countDocuments({ libraryId: '/many/queries' }), MAX_QUERIES_PER_DAY);
  const res = await metrics({ libraryId: '/many/queries' });
  t.is(res.body.totals.requests, MAX_QUERIES_PER_DAY + 15, 'requests are all counted');
  t.is(res.body.topQueries.length, 10);
});

test('record is fire-and-forget: bad events are dropped, bursts are counted exactly', async (t) => {
  const { usage } = app.services;
  t.notThrows(() => usage.record({ libraryId: undefined as unknown as string, channel: 'api', tokens: 1 }));
  t.notThrows(() => usage.record({ libraryId: '/a/b', channel: 'fax' as 'api', tokens: 1 }));
  await Promise.all(Array.from({ length: 200 }, async (_, i) => usage.record({ libraryId: '/burst/lib', channel: i % 2 ? 'api' : 'mcp', tokens: 2 })));
  const res = await metrics({ libraryId: '/burst/lib', days: '1' });
  t.deepEqual(res.body.totals, { requests: 200, tokens: 400, byChannel: { api: 100, txt: 0, mcp: 100, playground: 0 } });
});

test('metrics need a key unless anonymous metrics are allowed', async (t) => {
  t.is((await app.request.get('/v2/libs/metrics?libraryId=/a/b')).status, 401);
  t.is((await app.request.get('/api/v2/libs/metrics?libraryId=/a/b').set(bearer(member.key))).status, 200, 'also under /api/v2');
});

test('the admin usage summary: per day per channel across libraries, and top libraries', async (t) => {
  const { usage } = app.services;
  usage.record({ libraryId: '/sum/one', channel: 'api', tokens: 10 });
  usage.record({ libraryId: '/sum/one', channel: 'txt', tokens: 10 });
  usage.record({ libraryId: '/sum/two', channel: 'mcp', tokens: 5 });
  usage.record({ libraryId: '/sum/three~team_q', channel: 'api', tokens: 1 }); // a team's private copy, as stored
  const res = await app.request.get('/v2/admin/usage?days=2').set(bearer(admin));
  t.is(res.status, 200);
  t.is(res.body.perDay.length, 2);
  const today = res.body.perDay[1];
  t.true(today.api >= 1 && today.txt >= 1 && today.mcp >= 1);
  t.is(res.body.totals.requests, today.api + today.txt + today.mcp + res.body.perDay[0].api + res.body.perDay[0].txt + res.body.perDay[0].mcp);
  const one = res.body.topLibraries.find((l: { libraryId: string }) => l.libraryId === '/sum/one');
  t.deepEqual(one, { libraryId: '/sum/one', teamId: null, requests: 2, tokens: 20 });
  t.false(res.body.topLibraries.some((l: { libraryId: string }) => l.libraryId === '*'));
  t.deepEqual(
    res.body.topLibraries.find((l: { libraryId: string }) => l.libraryId === '/sum/three'),
    { libraryId: '/sum/three', teamId: 'team_q', requests: 1, tokens: 1 },
    'client ids, with the team of a private copy',
  );
  t.is((await app.request.get('/v2/admin/usage').set(bearer(member.key))).status, 403);
  t.is((await app.request.get('/v2/admin/usage?days=100').set(bearer(admin))).status, 400);
});

test('usage by API key and by team, and zero-result queries with their library: unwritten and stored, not counted as libraries', async (t) => {
  const owner = await makeUser(app, { plan: 'pro', teamRole: 'owner' });
  const [key] = await app.services.keys.list(owner.userId);
  const { usage } = app.services;
  usage.record({ libraryId: '/by/lib', channel: 'api', tokens: 7, keyId: key._id, callerTeamId: owner.teamId });
  usage.record({ libraryId: '/by/lib', channel: 'mcp', tokens: 3, keyId: key._id, callerTeamId: owner.teamId });
  usage.record({ libraryId: '/by/lib', channel: 'txt', tokens: 1, query: 'How to frobnicate?', noResults: true });
  const read = async () =>
    (await app.request.get('/v2/admin/usage?days=1').set(bearer(admin))).body as Record<string, Array<Record<string, unknown>>> & {
      totals: { requests: number };
    };
  for (const when of ['unwritten', 'stored']) {
    const body = await read();
    t.like(
      body.byKey.find((k) => k.keyId === key._id),
      { name: 'test key', prefix: key.prefix, userId: owner.userId, api: 1, mcp: 1, txt: 0, requests: 2, tokens: 10 },
      when,
    );
    t.like(
      body.byTeam.find((k) => k.teamId === owner.teamId),
      { name: `team ${owner.username}`, requests: 2, tokens: 10 },
      when,
    );
    t.deepEqual(
      body.zeroResultQueries.filter((q) => q.libraryId === '/by/lib'),
      [{ libraryId: '/by/lib', query: 'how to frobnicate?', count: 1 }],
      when,
    );
    t.false(
      body.topLibraries.some((l) => String(l.libraryId).startsWith('@')),
      when,
    );
    t.like(
      body.topLibraries.find((l) => l.libraryId === '/by/lib'),
      { requests: 2, tokens: 10 },
      `${when}: a zero-result query is not a served request`,
    );
    await usage.flush();
  }
  const metrics = await app.request.get('/v2/libs/metrics?libraryId=/by/lib&days=1').set(bearer(admin));
  t.deepEqual(metrics.body.topQueries, [], 'a query that found nothing is not among the top queries');
});

/** What is stored for a library, summed over the writers' documents (as metrics reads do). */
const stored = async (libraryId: string, db = app.handles.mongo) => {
  const days = await db.collection('usage_daily').find({ libraryId }).toArray();
  const docs = await db
    .collection(queryPartition(utcDate(new Date())))
    .find({ libraryId })
    .toArray();
  const sum = (field: string) => days.reduce((n, d) => n + ((d[field] as number | undefined) ?? 0), 0);
  const queries = new Map<string, number>();
  for (const q of docs) queries.set(q.query as string, (queries.get(q.query as string) ?? 0) + (q.count as number));
  return { requests: sum('requests'), api: sum('api'), mcp: sum('mcp'), tokens: sum('tokens'), queries: [...queries].sort() };
};
const waitFor = async (check: () => Promise<boolean>, ms = 5000) => {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 25))) if (await check()) return true;
  return false;
};

test('the timer writes day counts each time, query counts only once their interval has passed (an explicit flush writes all)', async (t) => {
  const { mongo } = app.handles;
  const { log } = app.services;
  const started = Date.now();
  const usage = new UsageService(new UsageStore(usageDailyModel(mongo), usageQueryModel(mongo)), log, 50, 3000);
  const lib = `/timer/lib-${Date.now()}`;
  usage.record({ libraryId: lib, channel: 'api', tokens: 1, query: 'first question' });
  t.true(await waitFor(async () => (await stored(lib)).requests === 1), 'the day count is written by the first timer flush');
  const early = await stored(lib);
  // (Checked only while the interval surely has not passed, so a slow machine cannot fail it.)
  if (Date.now() - started < 2500) t.deepEqual(early.queries, [], 'the query waits for its interval');
  usage.record({ libraryId: lib, channel: 'api', tokens: 1, query: 'First  question' });
  t.true(await waitFor(async () => (await stored(lib)).requests === 2));
  const total = async () => (await stored(lib)).queries.reduce((n, [, count]) => n + (count as number), 0);
  t.true(await waitFor(async () => (await total()) === 2, 10_000), 'written by the timer once the interval has passed, with no new event');
  t.deepEqual((await stored(lib)).queries, [['first question', 2]], 'both askings, normalised to one query');
  usage.record({ libraryId: lib, channel: 'txt', tokens: 1, query: 'second question' });
  await usage.flush();
  t.deepEqual(
    (await stored(lib)).queries,
    [
      ['first question', 2],
      ['second question', 1],
    ],
    'an explicit flush writes queries at once',
  );
  await usage.stop();
});

test('instances flushing the same counters at once stay exact: each writes only its own documents', async (t) => {
  const { mongo } = app.handles;
  const { log } = app.services;
  const lib = `/race/lib-${Date.now()}`;
  const instances = Array.from({ length: 4 }, () => new UsageService(new UsageStore(usageDailyModel(mongo), usageQueryModel(mongo)), log, 60_000));
  const recordRound = () => {
    for (const [i, usage] of instances.entries()) {
      for (let n = 0; n <= i; n++) usage.record({ libraryId: lib, channel: 'api', tokens: 10, query: 'shared question' });
      usage.record({ libraryId: lib, channel: 'mcp', tokens: 1, query: `only on ${i}` });
    }
  };
  recordRound();
  await Promise.all(instances.map((u) => u.flush()));
  const first = await stored(lib);
  t.deepEqual(first.queries, [
    ['only on 0', 1],
    ['only on 1', 1],
    ['only on 2', 1],
    ['only on 3', 1],
    ['shared question', 10],
  ]);
  t.deepEqual({ api: first.api, mcp: first.mcp, tokens: first.tokens }, { api: 10, mcp: 4, tokens: 104 });

  // Many rounds of concurrent flushes (FerretDB loses concurrent `$inc`s on one document).
  for (let round = 0; round < 5; round++) {
    recordRound();
    await Promise.all(instances.map((u) => u.flush()));
  }
  const after = await stored(lib);
  t.deepEqual({ api: after.api, mcp: after.mcp, tokens: after.tokens }, { api: 60, mcp: 24, tokens: 624 });
  t.deepEqual(after.queries, [
    ['only on 0', 6],
    ['only on 1', 6],
    ['only on 2', 6],
    ['only on 3', 6],
    ['shared question', 60],
  ]);
  const res = await metrics({ libraryId: lib, days: '1' }, admin);
  t.deepEqual(res.body.totals, { requests: 84, tokens: 624, byChannel: { api: 60, txt: 0, mcp: 24, playground: 0 } }, 'reads sum the writers');
  t.deepEqual(res.body.topQueries[0], { query: 'shared question', count: 60 });
});

/**
 * A UsageService on a database of its own, whose timers never flush: the summary test above
 * counts libraries across the shared one.
 */
function isolatedUsage(t: ExecutionContext, name: string) {
  const db = app.handles.mongo.useDb(`${app.handles.mongo.name}_${name}`);
  const usage = new UsageService(new UsageStore(usageDailyModel(db), usageQueryModel(db)), app.services.log, 60_000, 60_000);
  t.teardown(async () => {
    await usage.stop();
    await dropTestStores({ mongo: db });
  });
  return { db, usage };
}

test('reads count what is not written yet and write nothing; a flush queued or running meanwhile is counted once', async (t) => {
  const { db, usage } = isolatedUsage(t, 'unwritten');
  const lib = `/unwritten/lib-${Date.now()}`;
  const other = `/unwritten/other-${Date.now()}`;
  const round = (n: number) => {
    for (let i = 0; i < n; i++)
      usage.record({ libraryId: lib, channel: i % 3 === 0 ? 'mcp' : 'api', tokens: 3, query: `question ${i % (MAX_QUERIES_PER_DAY + 20)}` });
    usage.record({ libraryId: other, channel: 'txt', tokens: 7, query: 'other question' });
  };
  round(90);
  const before = await usage.metrics(lib, 1);
  t.is(before.totals.requests, 90);
  t.is(before.totals.tokens, 270);
  t.deepEqual((await stored(lib, db)).requests, 0, 'the read wrote nothing');
  t.deepEqual((await stored(lib, db)).queries, []);
  const summaryBefore = await usage.summary(1);
  t.deepEqual(
    summaryBefore.topLibraries.find((l) => l.libraryId === other),
    { libraryId: other, requests: 1, tokens: 7 },
  );

  // A flush queued before the read (not awaited) and events recorded while it waits.
  const flushed = usage.flush();
  round(30);
  const during = usage.metrics(lib, 1);
  round(10);
  const mid = await during;
  t.true(mid.totals.requests >= 120 && mid.totals.requests <= 130, `counted once: ${mid.totals.requests}`);
  await flushed;
  await usage.flush();
  const after = await usage.metrics(lib, 1);
  t.is(after.totals.requests, 130);
  t.deepEqual(after.totals.byChannel, { api: (await stored(lib, db)).api, txt: 0, mcp: (await stored(lib, db)).mcp, playground: 0 });
  t.is((await stored(lib, db)).requests, 130, 'everything written once');
  // Top queries: the same before and after the write, within the per-day bound of stored queries.
  round(0);
  const unwrittenTop = (await usage.metrics(lib, 1)).topQueries;
  await usage.flush();
  t.deepEqual((await usage.metrics(lib, 1)).topQueries, unwrittenTop);
  t.is((await stored(lib, db)).queries.length, MAX_QUERIES_PER_DAY);
  const summaryAfter = await usage.summary(1);
  t.deepEqual(
    summaryAfter.topLibraries.find((l) => l.libraryId === other),
    { libraryId: other, requests: 4, tokens: 28 },
  );
});

test('a read during a long flush waits for one write command, not the flush, and counts exactly', async (t) => {
  const { db, usage } = isolatedUsage(t, 'midflush');
  const libs = Array.from({ length: 40 }, (_, i) => `/midflush/lib-${i}`);
  for (const lib of libs) for (let q = 0; q < 20; q++) usage.record({ libraryId: lib, channel: 'api', tokens: 2, query: `question ${q} for ${lib}` });
  // About 840 counters: more than a hundred commands of a few statements.
  let done = false;
  const flushed = usage.flush().then(() => (done = true));
  const queryCount = async () => db.collection(queryPartition(utcDate(new Date()))).countDocuments({});
  t.true(await waitFor(async () => (await queryCount()) > 0 || done, 20_000));
  const last = libs[libs.length - 1];
  const [mid, summary] = await Promise.all([usage.metrics(last, 1), usage.summary(1)]);
  t.false(done, 'the reads answered before the flush ended');
  await flushed;
  t.deepEqual(mid, await usage.metrics(last, 1), 'the same answer as after the write');
  t.is(mid.totals.requests, 20);
  t.is(mid.topQueries.length, 10);
  t.is(summary.totals.requests, 800);
  t.deepEqual(summary, await usage.summary(1));
});
