/**
 * The soak's pure parts: its command line, how answers count, the per-minute figures, the
 * pass/fail rules, the chaos schedule and the job invariants — on hand-made samples.
 */
import test from 'ava';
import { parseSoakOptions, UsageError, wantsCorpusLibrary, DEFAULT_CORPUS_LIBS } from '../../scripts/bench/soak/options';
import { classifyAnswer, errorCodeOf, WEDGE_MS } from '../../scripts/bench/soak/classify';
import {
  KindAccumulator,
  newBucket,
  summarizeMinute,
  type HealthSample,
  type MinuteBucket,
  type MinuteSummary,
  type RequestSample,
} from '../../scripts/bench/soak/minute';
import { judgeMemory, OutageTracker, passed, verdict, type InvariantReport, type VerdictInput } from '../../scripts/bench/soak/rules';
import { chaosSchedule, inWindow } from '../../scripts/bench/soak/chaos';
import { judgeJob } from '../../scripts/bench/soak/invariants';
import { mcpProblem, multipartBody, pickWeighted } from '../../scripts/bench/soak/mix';
import { storeReadsOf } from '../../scripts/bench/soak/monitor';
import { Stopper } from '../../scripts/bench/soak/traffic';
import { operationQuestions, repoQuestions, soakRepos, libraryIdOfRepo } from '../../scripts/bench/soak/fixtures';

const parse = (...args: string[]) => parseSoakOptions(args, { corpus: '/corpus' });

test('options: --minutes is required and bounded; defaults for the rest', (t) => {
  t.throws(() => parse(), { instanceOf: UsageError, message: /--minutes is required/ });
  t.throws(() => parse('--minutes', '0'), { instanceOf: UsageError });
  t.throws(() => parse('--minutes', '1.5'), { instanceOf: UsageError });
  const o = parse('--minutes', '2');
  t.like(o, { minutes: 2, chaos: false, urls: [], pids: [], clients: 4, rps: 20, corpus: '/corpus' });
  t.deepEqual(o.corpusLibs, DEFAULT_CORPUS_LIBS);
  t.true(Object.isFrozen(o));
});

test('options: --chaos needs 3 minutes; --url lists, --pid and --api-key go with it', (t) => {
  t.throws(() => parse('--minutes', '2', '--chaos'), { message: /--chaos needs --minutes 3/ });
  t.true(parse('--minutes', '3', '--chaos').chaos);
  const o = parse('--minutes', '5', '--url', 'http://127.0.0.1:3000/,http://127.0.0.1:3001', '--pid', '10,11', '--api-key', 'smk_x');
  t.deepEqual(o.urls, ['http://127.0.0.1:3000', 'http://127.0.0.1:3001']);
  t.deepEqual(o.pids, [10, 11]);
  t.is(o.apiKey, 'smk_x');
  t.throws(() => parse('--minutes', '5', '--pid', '10'), { message: /--pid goes with --url/ });
  t.throws(() => parse('--minutes', '5', '--url', 'http://127.0.0.1:3000', '--pid', '10,11'), { message: /one process id per --url/ });
  t.throws(() => parse('--minutes', '5', '--api-key', 'smk_x'), { message: /--api-key goes with --url/ });
  t.throws(() => parse('--minutes', '5', '--url', 'https://example.org'), { message: /only http/ });
  t.throws(() => parse('--minutes', '5', '--bogus'), { instanceOf: UsageError });
  t.throws(() => parse('--minutes', '5', 'extra'), { instanceOf: UsageError });
});

test('options: --corpus-libs picks libraries by repository name or id; all and none', (t) => {
  t.true(wantsCorpusLibrary(parse('--minutes', '1'), '/koajs/koa'));
  t.false(wantsCorpusLibrary(parse('--minutes', '1'), '/vitejs/vite'));
  t.true(wantsCorpusLibrary(parse('--minutes', '1', '--corpus-libs', 'all'), '/vitejs/vite'));
  t.false(wantsCorpusLibrary(parse('--minutes', '1', '--corpus-libs', 'none'), '/koajs/koa'));
  t.true(wantsCorpusLibrary(parse('--minutes', '1', '--corpus-libs', '/vitejs/vite,flask'), '/pallets/flask'));
});

test('answers: ok, planned refusals, 429, wedges and transport failures', (t) => {
  const ok = { ok: [200] };
  t.is(classifyAnswer({ status: 200, ms: 5 }, ok, false).outcome, 'ok');
  t.is(classifyAnswer({ status: 429, ms: 5 }, ok, false).outcome, 'rate-limited');
  t.is(classifyAnswer({ status: 504, ms: 4000 }, { ok: [200], expected: [504] }, false).outcome, 'expected');
  t.is(classifyAnswer({ status: 404, ms: 5, code: 'library_not_found' }, ok, false).detail, '404 library_not_found (expected 200)');
  t.is(classifyAnswer({ status: 0, ms: WEDGE_MS, error: 'timed out' }, ok, false).outcome, 'wedge');
  t.is(classifyAnswer({ status: 200, ms: WEDGE_MS + 1 }, ok, false).outcome, 'wedge', 'an answer after the deadline is a wedge too');
  t.like(classifyAnswer({ status: 0, ms: 3, error: 'ECONNREFUSED' }, ok, true), { outcome: 'unexpected', detail: 'no answer: ECONNREFUSED' });
});

test('answers: a 503 and a tool error are tolerated only in a chaos window; a 500 never', (t) => {
  const ok = { ok: [200] };
  t.is(classifyAnswer({ status: 503, ms: 5, code: 'service_unavailable' }, ok, true).outcome, 'tolerated');
  t.is(classifyAnswer({ status: 503, ms: 5, code: 'service_unavailable' }, ok, false).outcome, 'unexpected');
  t.is(classifyAnswer({ status: 500, ms: 5 }, ok, true).outcome, 'unexpected');
  t.is(classifyAnswer({ status: 200, ms: 5, bodyProblem: 'tool error: down' }, ok, true).outcome, 'tolerated');
  t.like(classifyAnswer({ status: 200, ms: 5, bodyProblem: 'tool error: down' }, ok, false), { outcome: 'unexpected', detail: '200: tool error: down' });
  t.is(errorCodeOf('{"error":"tag_not_found","message":"x"}'), 'tag_not_found');
  t.is(errorCodeOf('{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}'), 'jsonrpc -32700');
  t.is(errorCodeOf('plain text'), undefined);
});

test('MCP answers: JSON-RPC errors and tool errors are problems, results are not', (t) => {
  t.is(mcpProblem('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"### a"}]}}'), undefined);
  t.is(
    mcpProblem('{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"Library not found"}]}}'),
    'tool error: Library not found',
  );
  t.is(mcpProblem('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'), 'JSON-RPC error: Method not found');
  t.is(mcpProblem('<html>'), 'the answer is not JSON');
});

const req = (over: Partial<RequestSample>): RequestSample => ({ at: 0, kind: 'context txt anon', server: 'A', status: 200, ms: 10, outcome: 'ok', ...over });
const health = (over: Partial<HealthSample>): HealthSample => ({
  at: 0,
  server: 'A',
  status: 200,
  wedge: false,
  chaos: false,
  livezMs: 2,
  stores: [
    { store: 'elasticsearch', up: true, latencyMs: 4 },
    { store: 'mongodb', up: true, latencyMs: 2 },
  ],
  ...over,
});

function bucketOf(requests: RequestSample[], healthSamples: HealthSample[] = [], extra: Partial<MinuteBucket> = {}): MinuteBucket {
  return { ...newBucket(3, ['A', 'B']), requests, health: healthSamples, ...extra };
}

test('a minute: statuses by class and outcome, unexpected 5xx apart, latency of answered requests only', (t) => {
  const m = summarizeMinute(
    bucketOf([
      ...Array.from({ length: 98 }, (_, i) => req({ ms: i + 1 })),
      req({ status: 404, outcome: 'expected', ms: 1 }),
      req({ status: 429, outcome: 'rate-limited', ms: 1 }),
      req({ status: 503, outcome: 'tolerated', ms: 1 }),
      req({ status: 500, outcome: 'unexpected', ms: 1, detail: '500 internal_error' }),
      req({ status: 400, outcome: 'unexpected', ms: 1, detail: '400 validation_error' }),
      req({ status: 0, outcome: 'wedge', ms: 10_000, detail: 'no answer within 10 s' }),
    ]),
  );
  t.is(m.minute, 3);
  t.is(m.requests, 104);
  t.deepEqual(m.byClass, { '2xx': 98, '4xx': 2, '429': 1, '5xx': 2, none: 1 });
  t.like(m.byOutcome, { ok: 98, expected: 1, 'rate-limited': 1, tolerated: 1, unexpected: 2, wedge: 1 });
  t.is(m.unexpected5xx, 1);
  t.is(m.unexpectedOther, 1);
  t.is(m.wedges, 1);
  t.is(m.p50Ms, 47, 'the wedge (no answer) is not a latency: 103 answered, 6 at 1 ms then 1..98');
  t.is(m.p99Ms, 97);
  t.deepEqual(m.examples, ['A context txt anon: 500 internal_error', 'A context txt anon: 400 validation_error', 'A context txt anon: no answer within 10 s']);
});

test('a minute: store read percentiles, with reads in chaos windows and failed reads left out of the judged p99', (t) => {
  const m = summarizeMinute(
    bucketOf(
      [],
      [
        ...Array.from({ length: 20 }, (_, i) => health({ stores: [{ store: 'mongodb', up: true, latencyMs: i + 1 }], livezMs: i })),
        health({ chaos: true, stores: [{ store: 'mongodb', up: true, latencyMs: 900 }] }),
        health({ chaos: true, stores: [{ store: 'mongodb', up: false, latencyMs: 2000 }] }),
        health({ wedge: true, status: 0, stores: [], livezMs: null }),
      ],
      { rssKb: { A: [100 * 1024, 200 * 1024], B: [] }, openJobs: [2, 5, 1], chaos: true },
    ),
  );
  t.like(m.stores.mongodb, { reads: 22, failed: 1, p50Ms: 11, p99Ms: 900, p99OutsideChaosMs: 20, readsOutsideChaos: 20 });
  t.like(m.stores.elasticsearch, { reads: 0, p99Ms: null, p99OutsideChaosMs: null });
  t.is(m.livezP99Ms, 19);
  t.is(m.healthWedges, 1);
  t.is(m.wedges, 1);
  t.deepEqual(m.rssMb, { A: 200, B: null });
  t.deepEqual(m.openJobs, { max: 5, last: 1 });
  t.true(m.chaos);
});

test('per-kind totals over the run', (t) => {
  const k = new KindAccumulator();
  k.add(req({ kind: 'b', ms: 3 }));
  k.add(req({ kind: 'a', ms: 1 }));
  k.add(req({ kind: 'a', status: 0, outcome: 'wedge', ms: 10_000 }));
  const [a, b] = k.totals();
  t.like(a, { kind: 'a', count: 2, statuses: { 200: 1, 0: 1 }, p50Ms: 1, maxMs: 1 });
  t.is(a.outcomes.wedge, 1);
  t.like(b, { kind: 'b', count: 1 });
});

test('store outages: only a run of failed reads longer than 30 s outside chaos windows counts', (t) => {
  const down = (at: number, server = 'A', chaos = false): HealthSample =>
    health({ at, server, chaos, stores: [{ store: 'mongodb', up: false, latencyMs: 2000 }] });
  const tracker = new OutageTracker();
  for (let at = 0; at <= 30_000; at += 3000) tracker.feed(down(at));
  t.is(tracker.long.length, 0, '30 s exactly is allowed');
  tracker.feed(down(33_000));
  t.like(tracker.long, [{ server: 'A', store: 'mongodb', from: 0, ms: 33_000 }]);
  tracker.feed(down(36_000));
  t.is(tracker.long.length, 1, 'one entry per outage');
  t.is(tracker.long[0].ms, 36_000);
  tracker.feed(health({ at: 39_000 }));
  // In a chaos window: not counted; after it the clock starts again.
  const chaos = new OutageTracker();
  for (let at = 0; at <= 60_000; at += 3000) chaos.feed(down(at, 'B', at < 40_000));
  t.is(chaos.long.length, 0);
  chaos.finish(75_000);
  t.like(chaos.long, [{ server: 'B', from: 42_000, ms: 33_000 }], 'an outage still running at the end lasts until the end');
});

const minute = (over: Partial<MinuteSummary> & { mongoP99?: number | null } = {}): MinuteSummary => {
  const m = summarizeMinute(bucketOf([req({})], [health({})]));
  return { ...m, ...over, stores: { ...m.stores, mongodb: { ...m.stores.mongodb, p99OutsideChaosMs: over.mongoP99 === undefined ? 2 : over.mongoP99 } } };
};
const cleanInvariants: InvariantReport = { jobs: 3, stuck: [], failed: [], ranTwice: [], explainedRetries: [], halfBuilt: [], checkedLibraries: 2 };
const input = (over: Partial<VerdictInput> = {}): VerdictInput => ({
  minutes: [minute(), minute()],
  longOutages: [],
  memory: [{ server: 'A', judged: true, baselineAtMs: 60_000, baselineMb: 200, endMb: 210, growth: 0.05 }],
  chaos: false,
  kills: [],
  invariants: cleanInvariants,
  serverExits: [],
  ...over,
});
const statusOf = (checks: ReturnType<typeof verdict>, rule: RegExp) => checks.find((c) => rule.test(c.rule))?.status;

test('verdict: a clean run passes every rule', (t) => {
  const checks = verdict(input());
  t.true(passed(checks));
  t.false(checks.some((c) => c.status === 'fail'));
});

test('verdict: each failure fails its own rule', (t) => {
  t.is(statusOf(verdict(input({ minutes: [minute({ wedges: 1 })] })), /no wedge/), 'fail');
  t.is(statusOf(verdict(input({ minutes: [minute({ unexpected5xx: 2 })] })), /unexpected 5xx/), 'fail');
  t.is(statusOf(verdict(input({ minutes: [minute({ unexpectedOther: 1 })] })), /other unexpected/), 'fail');
  t.is(statusOf(verdict(input({ longOutages: [{ server: 'A', store: 'mongodb', from: 0, ms: 31_000 }] })), /more than 30 s/), 'fail');
  t.is(statusOf(verdict(input({ minutes: [minute({ mongoP99: 50 })] })), /mongodb read p99/), 'pass', '50 ms is allowed');
  t.is(statusOf(verdict(input({ minutes: [minute({ mongoP99: 50.1 })] })), /mongodb read p99/), 'fail');
  t.is(statusOf(verdict(input({ minutes: [minute({ mongoP99: null })] })), /mongodb read p99/), 'not judged');
  t.is(
    statusOf(verdict(input({ memory: [{ server: 'A', judged: true, baselineAtMs: 60_000, baselineMb: 200, endMb: 221, growth: 0.105 }] })), /RSS growth/),
    'fail',
  );
  t.is(statusOf(verdict(input({ serverExits: ['A exited (1)'] })), /kept running/), 'fail');
  t.is(statusOf(verdict(input({ invariants: { ...cleanInvariants, stuck: ['job_1 still indexing'] } })), /terminal state/), 'fail');
  t.is(statusOf(verdict(input({ invariants: { ...cleanInvariants, failed: ['job_1 failed'] } })), /failed or was cancelled/), 'fail');
  t.is(statusOf(verdict(input({ invariants: { ...cleanInvariants, ranTwice: ['job_1: 2 attempts'] } })), /ran twice/), 'fail');
  t.is(statusOf(verdict(input({ invariants: { ...cleanInvariants, halfBuilt: ['/a/b answers 404'] } })), /half-built/), 'fail');
  t.false(passed(verdict(input({ minutes: [minute({ wedges: 1 })] }))));
});

test('verdict: a memory check that could not be judged says so and does not fail the run', (t) => {
  const checks = verdict(input({ memory: [{ server: 'B', judged: false, reason: 'run too short' }] }));
  t.is(statusOf(checks, /server B RSS/), 'not judged');
  t.true(passed(checks));
});

test('verdict: chaos kills must recover within 30 s; a kill that could not be made fails', (t) => {
  const kill = { target: 'ferretdb' as const, killedAt: 60_000, pid: 7, storeBackMs: 2000, runningJobsAtKill: 1 };
  t.is(statusOf(verdict(input({ chaos: true, kills: [{ ...kill, recoveredMs: 30_000 }] })), /ferretdb killed/), 'pass');
  t.is(statusOf(verdict(input({ chaos: true, kills: [{ ...kill, recoveredMs: 30_001 }] })), /ferretdb killed/), 'fail');
  t.is(statusOf(verdict(input({ chaos: true, kills: [{ ...kill, recoveredMs: null }] })), /ferretdb killed/), 'fail');
  t.is(
    statusOf(
      verdict(input({ chaos: true, kills: [{ target: 'elasticsearch', recoveredMs: null, storeBackMs: null, runningJobsAtKill: 0, error: 'no pid' }] })),
      /elasticsearch killed/,
    ),
    'fail',
  );
});

test('memory: baseline after the warm-up (or 5 minutes in long runs), medians over 30 s, too short runs not judged', (t) => {
  const points = (runMs: number, kbAt: (at: number) => number) => Array.from({ length: runMs / 5000 + 1 }, (_, i) => ({ at: i * 5000, kb: kbAt(i * 5000) }));
  const short = judgeMemory(
    'A',
    points(120_000, () => 1000),
    120_000,
  );
  t.false(short.judged);
  t.regex(short.judged ? '' : short.reason, /too short.*1\.0 min after the 1-min warm-up, need 2/);
  const flat = judgeMemory(
    'A',
    points(180_000, (at) => (at < 60_000 ? 500 : 100 * 1024)),
    180_000,
  );
  t.like(flat, { judged: true, baselineAtMs: 60_000, baselineMb: 100, endMb: 100, growth: 0 });
  const growing = judgeMemory(
    'A',
    points(20 * 60_000, (at) => 100 * 1024 + at / 10),
    20 * 60_000,
  );
  t.like(growing, { judged: true, baselineAtMs: 5 * 60_000 });
  t.true(growing.judged && growing.growth > 0.1);
  t.false(judgeMemory('A', [], 180_000).judged);
});

test('chaos: FerretDB at 30% of the run (at least 45 s), Elasticsearch at least a minute later; windows', (t) => {
  t.deepEqual(chaosSchedule(180_000), [
    { target: 'ferretdb', atMs: 54_000 },
    { target: 'elasticsearch', atMs: 117_000 },
  ]);
  t.deepEqual(
    chaosSchedule(60 * 60_000).map((k) => k.atMs),
    [18 * 60_000, 39 * 60_000],
  );
  const windows = [
    { target: 'ferretdb' as const, start: 10, end: 20 },
    { target: 'elasticsearch' as const, start: 50 },
  ];
  t.true(inWindow(windows, 10));
  t.true(inWindow(windows, 20));
  t.false(inWindow(windows, 21));
  t.true(inWindow(windows, 10_000), 'an open window has no end yet');
});

const job = (over: Partial<Parameters<typeof judgeJob>[0]> = {}) => ({
  id: 'job_1',
  kind: 'refresh',
  libraryId: '/soak/aurora',
  version: 'latest',
  state: 'finalized',
  attempts: 1,
  error: null,
  createdAt: new Date(1_000_000 + 50_000).toISOString(),
  finishedAt: new Date(1_000_000 + 80_000).toISOString(),
  ...over,
});

test('jobs: stuck, failed, ran twice, or retried after an outage a chaos window explains', (t) => {
  const windows = [{ target: 'ferretdb' as const, start: 60_000, end: 90_000 }];
  t.deepEqual(judgeJob(job(), undefined, windows, 1_000_000, 200_000), {});
  t.regex(judgeJob(job({ state: 'indexing', finishedAt: null }), undefined, [], 1_000_000, 200_000).stuck ?? '', /still indexing/);
  t.regex(judgeJob(job({ state: 'failed', error: 'boom' }), undefined, [], 1_000_000, 200_000).failed ?? '', /failed: boom/);
  const resumed = ['queued refresh', 'a store was unavailable (x); trying again in 5 s', 'resumed by host:1:abc (attempt 2) after 1 store outage(s)'];
  t.is(
    judgeJob(job({ attempts: 2 }), resumed, windows, 1_000_000, 200_000).explainedRetry,
    'job_1 (refresh /soak/aurora@latest): 2 attempts ((attempt 2) after 1 store outage(s))',
  );
  t.regex(judgeJob(job({ attempts: 2 }), resumed, [], 1_000_000, 200_000).ranTwice ?? '', /2 attempts, outside any chaos window/);
  const lapsed = judgeJob(job({ attempts: 2 }), ['resumed by host:1:abc (attempt 2) after the previous worker stopped'], windows, 1_000_000, 200_000);
  t.regex(lapsed.explainedRetry ?? '', /after the previous worker stopped/, 'a lease that lapsed in a chaos window is explained, and says so');
  t.regex(judgeJob(job({ attempts: 2 }), ['queued refresh'], windows, 1_000_000, 200_000).ranTwice ?? '', /no "resumed by" line/);
  const later = job({ attempts: 2, createdAt: new Date(1_000_000 + 120_000).toISOString(), finishedAt: new Date(1_000_000 + 130_000).toISOString() });
  t.truthy(judgeJob(later, resumed, windows, 1_000_000, 200_000).ranTwice, 'a job that lived after the window closed is not explained by it');
});

test('mix: weighted picks, a multipart body, store reads of /healthz', (t) => {
  const items = [
    ['a', 1],
    ['b', 3],
  ] as const;
  t.is(
    pickWeighted(items, () => 0),
    'a',
  );
  t.is(
    pickWeighted(items, () => 0.24),
    'a',
  );
  t.is(
    pickWeighted(items, () => 0.26),
    'b',
  );
  t.is(
    pickWeighted(items, () => 0.999),
    'b',
  );
  const { body, contentType } = multipartBody({ force: 'true' }, { field: 'openapiFile', name: 'a.json', type: 'application/json', text: '{}' }, 'XYZ');
  t.is(contentType, 'multipart/form-data; boundary=XYZ');
  t.is(
    body,
    '--XYZ\r\nContent-Disposition: form-data; name="force"\r\n\r\ntrue\r\n--XYZ\r\nContent-Disposition: form-data; name="openapiFile"; filename="a.json"\r\nContent-Type: application/json\r\n\r\n{}\r\n--XYZ--\r\n',
  );
  t.deepEqual(
    storeReadsOf(
      '{"status":"unavailable","stores":{"elasticsearch":{"status":"down","latencyMs":2001,"error":"x"},"mongodb":{"status":"up","latencyMs":3.5}}}',
    ),
    [
      { store: 'elasticsearch', up: false, latencyMs: 2001 },
      { store: 'mongodb', up: true, latencyMs: 3.5 },
    ],
  );
  t.deepEqual(storeReadsOf('not json'), []);
});

test('fixtures: every repository has distinct questions; OpenAPI operations become questions', (t) => {
  const repos = soakRepos();
  t.deepEqual(repos.map(libraryIdOfRepo), ['/soak/aurora', '/soak/basalt', '/git/cobalt', '/soak/dune', '/soak/ember', '/git/fjord']);
  const questions = repos.flatMap(repoQuestions);
  t.is(new Set(questions).size, questions.length);
  t.is(questions.length, 180);
  const doc = JSON.stringify({ openapi: '3.0.0', paths: { '/pets': { get: { summary: 'List all pets.' }, post: {} }, '/x': { parameters: [] } } });
  t.deepEqual(operationQuestions(doc), ['how do I list all pets', 'how do I post /pets']);
  t.deepEqual(operationQuestions('openapi: 3.0.0\npaths:\n  /a:\n    delete:\n      summary: Remove A\n'), ['how do I remove a']);
  const webhooksOnly = JSON.stringify({ openapi: '3.1.0', info: { title: 'Webhook Example' }, webhooks: { newPet: { post: { requestBody: {} } } } });
  t.deepEqual(operationQuestions(webhooksOnly), ['what does the newPet webhook send'], 'OpenAPI 3.1 webhooks are asked about too');
  t.deepEqual(
    operationQuestions(JSON.stringify({ openapi: '3.1.0', info: { title: 'Only Schemas' } })),
    ['what is the only schemas'],
    'no operations: ask about the title',
  );
});

test('the stopper wakes every sleeper at once and later sleeps return at once', async (t) => {
  const stopper = new Stopper();
  const started = Date.now();
  const sleeping = Promise.all([stopper.sleep(60_000), stopper.sleep(60_000)]);
  setTimeout(() => stopper.stop(), 20);
  await sleeping;
  await stopper.sleep(60_000);
  t.true(Date.now() - started < 5000);
});
