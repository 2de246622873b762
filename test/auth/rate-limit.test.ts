import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, bearer, makeUser } from './fixtures';
import { blockSize, IncrementCounter, RateLimiter, SlotCounter, WINDOW_MS } from '../../src/auth/rate-limiter';

let app: TestApp;
let untrusting: TestApp;
const LIMITS = { RATE_LIMIT_ANON_PER_MINUTE: '3', RATE_LIMIT_KEY_PER_MINUTE: '5', RATE_LIMIT_EXPENSIVE_PER_MINUTE: '2' };
test.before(async () => {
  [app, untrusting] = await Promise.all([createTestApp({ ...LIMITS, TRUSTED_PROXIES: '127.0.0.1', WORKER_MODE: 'off' }), createTestApp(LIMITS)]);
  await adminKey(app);
});
test.after.always(async () => {
  await Promise.all([app?.close(), untrusting?.close()]);
});

/** Waits for a fresh minute when the current one is about to end (windows are fixed minutes). */
async function freshWindow(): Promise<void> {
  const into = Date.now() % WINDOW_MS;
  if (into > WINDOW_MS - 8000) await new Promise((r) => setTimeout(r, WINDOW_MS - into + 50));
}

let ipCounter = 10;
const newClient = () => `198.51.100.${ipCounter++}`;
const search = (a: TestApp, ip?: string) => {
  const req = a.request.get('/v2/libs/search?libraryName=react');
  return ip ? req.set('X-Forwarded-For', ip) : req;
};

test('anonymous: RateLimit-* on every response, then 429 with all four headers and correct values', async (t) => {
  await freshWindow();
  const ip = newClient();
  for (const remaining of [2, 1, 0]) {
    const res = await search(app, ip);
    t.not(res.status, 429);
    t.is(res.headers['ratelimit-limit'], '3');
    t.is(res.headers['ratelimit-remaining'], String(remaining));
  }
  const before = Date.now();
  const res = await search(app, ip);
  const windowEnd = (Math.floor(before / WINDOW_MS) + 1) * WINDOW_MS;
  t.is(res.status, 429);
  t.is(res.body.error, 'rate_limit_exceeded');
  t.regex(res.body.message, /3 requests per minute/);
  t.is(res.headers['ratelimit-limit'], '3');
  t.is(res.headers['ratelimit-remaining'], '0');
  t.is(Number(res.headers['ratelimit-reset']), Math.ceil(windowEnd / 1000), 'a unix timestamp: the end of the window');
  const retryAfter = Number(res.headers['retry-after']);
  t.true(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60);
  t.true(Math.abs(retryAfter - (windowEnd - before) / 1000) <= 1.5, `Retry-After ${retryAfter} ≈ seconds to the reset`);
  t.is((await search(app, newClient())).headers['ratelimit-remaining'], '2', 'other clients have their own count');
});

test('keys get a higher limit than anonymous clients, counted per key', async (t) => {
  await freshWindow();
  const user = await makeUser(app);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await search(app).set(bearer(user.key))).status);
  t.false(statuses.slice(0, 5).includes(429));
  t.is(statuses[5], 429);
  const other = await makeUser(app);
  const res = await search(app).set(bearer(other.key));
  t.not(res.status, 429);
  t.is(res.headers['ratelimit-limit'], '5');
});

test('expensive operations have their own, lower limit', async (t) => {
  await freshWindow();
  const user = await makeUser(app);
  const add = () => app.request.post('/v2/add/repo/github').set(bearer(user.key)).send({});
  const first = await add();
  t.is(first.status, 400, 'validated after passing the limit');
  t.is(first.headers['ratelimit-limit'], '2');
  t.is(first.headers['ratelimit-remaining'], '1');
  t.is((await add()).status, 400);
  const third = await add();
  t.is(third.status, 429);
  t.is(third.headers['ratelimit-limit'], '2');
  t.truthy(third.headers['retry-after']);
});

test('X-Forwarded-For counts only when the peer is a trusted proxy', async (t) => {
  await freshWindow();
  const a = await search(untrusting, newClient());
  const b = await search(untrusting, newClient());
  t.is(Number(b.headers['ratelimit-remaining']), Number(a.headers['ratelimit-remaining']) - 1, 'one bucket: the untrusted header is ignored');
  const c = await search(app, newClient());
  const d = await search(app, newClient());
  t.is(c.headers['ratelimit-remaining'], '2');
  t.is(d.headers['ratelimit-remaining'], '2');
});

test('parallel requests never exceed the limit (FerretDB uses unique slots, not $inc)', async (t) => {
  await freshWindow();
  t.is(app.services.rateLimiter.strategy.name, 'slots', 'this suite runs on FerretDB');
  const ip = newClient();
  const results = await Promise.all(Array.from({ length: 12 }, () => search(app, ip)));
  t.is(results.filter((r) => r.status !== 429).length, 3);
  const remaining = results
    .filter((r) => r.status !== 429)
    .map((r) => r.headers['ratelimit-remaining'])
    .sort();
  t.deepEqual(remaining, ['0', '1', '2']);
});

test('both counting strategies count a window and purge it once it has ended', async (t) => {
  const Model = app.handles.auth.RateCounter;
  let now = 0;
  const limits = { anonPerMinute: 2, keyPerMinute: 4, expensivePerMinute: 1 };
  for (const strategy of [new IncrementCounter(Model), new SlotCounter(Model)]) {
    now = Date.UTC(2030, 0, 1, 0, 0, 10);
    const limiter = new RateLimiter(Model, strategy, limits, () => now);
    const id = `test-${strategy.name}`;
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await limiter.hit('standard', id, 'anonymous'));
    t.deepEqual(
      decisions.map((d) => [d.allowed, d.remaining]),
      [
        [true, 1],
        [true, 0],
        [false, 0],
      ],
      strategy.name,
    );
    t.is(decisions[0].reset, Date.UTC(2030, 0, 1, 0, 1, 0) / 1000);
    t.is(decisions[0].retryAfter, 50);
    t.is((await limiter.hit('standard', id, 'key')).limit, 4);
    now += WINDOW_MS;
    t.true((await limiter.hit('standard', id, 'anonymous')).allowed, 'a new window starts over');
    now += 2 * WINDOW_MS;
    t.true((await limiter.purge()) > 0);
    t.is(await Model.countDocuments({ _id: { $regex: `^standard:${id}:` } }), 0);
  }
});

test('large limits reserve blocks: few store writes, and two instances together never pass the limit', async (t) => {
  const Model = app.handles.auth.RateCounter;
  t.is(blockSize(3), 1);
  t.is(blockSize(100), 5);
  t.is(blockSize(1_000_000), 1000);
  const limits = { anonPerMinute: 100, keyPerMinute: 100, expensivePerMinute: 100 };
  for (const make of [() => new IncrementCounter(Model), () => new SlotCounter(Model)]) {
    const now = Date.UTC(2031, 0, 1, 0, 0, 5);
    // Two limiters with their own memory, as two instances sharing the store.
    const a = new RateLimiter(Model, make(), limits, () => now);
    const b = new RateLimiter(Model, make(), limits, () => now);
    const id = `blocks-${a.strategy.name}-${Date.now()}`;
    const decisions = [];
    for (let round = 0; round < 40; round++) {
      const order = [a, a, b, a, b];
      if (a.strategy.name === 'slots') {
        // Bursts in parallel on both, so reservations race (FerretDB's unique _id decides).
        decisions.push(...(await Promise.all(order.map((l) => l.hit('standard', id, 'anonymous')))));
      } else {
        // `$inc` is atomic only on MongoDB; these tests run on FerretDB, so no racing here.
        for (const l of order) decisions.push(await l.hit('standard', id, 'anonymous'));
      }
    }
    const admitted = decisions.filter((d) => d.allowed).length;
    t.true(admitted <= 100, `${a.strategy.name}: admitted ${admitted}`);
    t.true(admitted >= 100 - 2 * (blockSize(100) - 1), `${a.strategy.name}: admitted ${admitted}, at most one partly used block per instance lost`);
    const records = await Model.find({ _id: { $regex: `^standard:${id}:` } }).lean();
    if (a.strategy.name === 'slots') t.true(records.length <= 100 / blockSize(100) + 1, `${records.length} block records for ${admitted} requests`);
    else t.is(records.length, 1);
    const refused = decisions.filter((d) => !d.allowed);
    t.true(refused.length > 0 && refused.every((d) => d.remaining === 0));
  }
});

test('one instance admits exactly the limit with blocks, numbering remaining down to 0', async (t) => {
  const Model = app.handles.auth.RateCounter;
  const now = Date.UTC(2031, 0, 1, 0, 3, 5);
  const limiter = new RateLimiter(Model, new SlotCounter(Model), { anonPerMinute: 60, keyPerMinute: 60, expensivePerMinute: 60 }, () => now);
  const id = `exact-${Date.now()}`;
  const decisions = await Promise.all(Array.from({ length: 70 }, () => limiter.hit('standard', id, 'anonymous')));
  t.is(decisions.filter((d) => d.allowed).length, 60);
  t.deepEqual(
    decisions
      .filter((d) => d.allowed)
      .map((d) => d.remaining)
      .sort((x, y) => y - x),
    Array.from({ length: 60 }, (_, i) => 59 - i),
  );
  t.is(await Model.countDocuments({ _id: { $regex: `^standard:${id}:` } }), 60 / blockSize(60));
});

test('a reservation the store failed does not use up its block: after an outage the window still admits its limit', async (t) => {
  const Model = app.handles.auth.RateCounter;
  const now = Date.UTC(2031, 0, 1, 0, 4, 5);
  const original = Model.create.bind(Model);
  let failing = true;
  // The real collection, with an outage in front of it.
  Model.create = ((...args: Parameters<typeof original>) => (failing ? Promise.reject(new Error('store down')) : original(...args))) as typeof Model.create;
  try {
    const limiter = new RateLimiter(Model, new SlotCounter(Model), { anonPerMinute: 3, keyPerMinute: 3, expensivePerMinute: 3 }, () => now);
    const id = `outage-${Date.now()}`;
    for (let i = 0; i < 10; i++) await t.throwsAsync(limiter.hit('standard', id, 'anonymous'));
    failing = false;
    const after = [];
    for (let i = 0; i < 4; i++) after.push((await limiter.hit('standard', id, 'anonymous')).allowed);
    t.deepEqual(after, [true, true, true, false], 'the limit, then refused');
  } finally {
    Model.create = original;
  }
});
