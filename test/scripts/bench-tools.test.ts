/**
 * The benchmark's pieces that need no Shelfmark server: /proc parsing, the closed-loop
 * runner (against a small local HTTP server), loopback checks and the report ratios.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { CpuMeter, parseProcStat } from '../../scripts/bench/harness/cpu';
import { formatCpu } from '../../scripts/bench/api/report';
import { parseProcStatus, readProcMemory, RssSampler } from '../../scripts/bench/harness/rss';
import { failedCount, mergeRuns, runClosedLoop, sendRequest } from '../../scripts/bench/harness/load';
import { assertLoopback, contextRequests, libraryNameOf, searchRequests } from '../../scripts/bench/api/workload';
import { floorRatios, formatRatios, type RunResult } from '../../scripts/bench/api/report';
import { summarizeLatencies } from '../../scripts/bench/harness/stats';
import { medianOfRounds, type SizeFigures } from '../../scripts/bench/scale/measure';

test('parseProcStatus reads VmRSS and VmHWM in kB', (t) => {
  const text = 'Name:\tnode\nVmPeak:\t 1200000 kB\nVmHWM:\t  250000 kB\nVmRSS:\t  200000 kB\nThreads:\t11\n';
  t.deepEqual(parseProcStatus(text), { rssKb: 200000, hwmKb: 250000 });
  t.is(parseProcStatus('Name:\tkthreadd\n'), undefined);
});

test('RssSampler samples this process', (t) => {
  if (!readProcMemory(process.pid)) return t.pass('no /proc here');
  const sampler = new RssSampler(process.pid, 10);
  t.true(sampler.start());
  const report = sampler.stop();
  t.truthy(report);
  t.true((report?.peakRssMb ?? 0) >= (report?.peakSampledRssMb ?? 0));
  t.true((report?.samples ?? 0) >= 2);
  t.false(new RssSampler(2 ** 30).start());
});

async function withServer(handler: http.RequestListener, run: (url: string, connections: () => number) => Promise<void>): Promise<void> {
  const server = http.createServer(handler);
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, () => connections);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

test('runClosedLoop keeps N connections busy for the duration and counts statuses', async (t) => {
  let n = 0;
  const seen = new Set<string>();
  await withServer(
    (req, res) => {
      seen.add(req.url ?? '');
      const k = ++n; // every third request, counted on arrival (not when its timer fires)
      setTimeout(() => res.writeHead(k % 3 === 0 ? 503 : 200).end('{}'), 2);
    },
    async (url, connections) => {
      const requests = ['/a', '/b', '/c'].map((p) => ({ method: 'GET' as const, url: new URL(p, url) }));
      const started = Date.now();
      const run = await runClosedLoop({ concurrency: 4, durationMs: 400, warmupMs: 50, requests });
      const took = Date.now() - started;
      t.true(took >= 400 && took < 2000, `took ${took} ms`);
      t.is(run.concurrency, 4);
      // Several rounds on each connection, even on a loaded machine.
      t.true(run.latencies.length > 8, `${run.latencies.length} answers`);
      t.true((run.statuses['503'] ?? 0) > 0);
      t.is(failedCount(run), run.statuses['503']);
      t.is(run.latencies.length, run.statuses['200']);
      t.deepEqual([...seen].sort(), ['/a', '/b', '/c']);
      t.true(connections() <= 4, `${connections()} connections`);
      const s = summarizeLatencies(run.latencies, failedCount(run), run.elapsedMs);
      t.true(s.p50 >= 2 && s.p50 <= s.p95 && s.p95 <= s.p99 && s.p99 <= s.max);
    },
  );
});

test('runClosedLoop stops at maxRequests', async (t) => {
  await withServer(
    (_req, res) => res.end('ok'),
    async (url) => {
      const run = await runClosedLoop({
        concurrency: 2,
        durationMs: 10_000,
        warmupMs: 0,
        maxRequests: 25,
        requests: [{ method: 'GET', url: new URL('/', url) }],
      });
      t.is(run.latencies.length, 25);
    },
  );
});

test('runClosedLoop starts at startAt and cycles', async (t) => {
  const seen: string[] = [];
  await withServer(
    (req, res) => {
      seen.push(req.url ?? '');
      res.end('ok');
    },
    async (url) => {
      const requests = ['/0', '/1', '/2'].map((p) => ({ method: 'GET' as const, url: new URL(p, url) }));
      await runClosedLoop({ concurrency: 1, durationMs: 10_000, warmupMs: 0, maxRequests: 4, requests, startAt: 2 });
      t.deepEqual(seen, ['/2', '/0', '/1', '/2']);
    },
  );
});

test('mergeRuns joins slices of one target', (t) => {
  const a = { concurrency: 1, elapsedMs: 1000, latencies: [1, 2], statuses: { '200': 2, '503': 1 }, errors: ['x'] };
  const b = { concurrency: 1, elapsedMs: 500, latencies: [3], statuses: { '200': 1 }, errors: ['x', 'y'] };
  t.deepEqual(mergeRuns([a, b]), { concurrency: 1, elapsedMs: 1500, latencies: [1, 2, 3], statuses: { '200': 3, '503': 1 }, errors: ['x', 'y'] });
  t.is(summarizeLatencies(mergeRuns([a, b]).latencies, 1, 1500).rps, 2);
});

test('sendRequest posts a JSON body and reports transport failures', async (t) => {
  await withServer(
    (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.end(`${req.method} ${req.headers['content-type']} ${body}`));
    },
    async (url) => {
      const agent = new http.Agent({ keepAlive: true });
      const a = await sendRequest(
        agent,
        { method: 'POST', url: new URL('/x/_search', url), headers: { 'content-type': 'application/json' }, body: '{"size":1}' },
        { keepBody: true },
      );
      t.is(a.status, 200);
      t.is(a.body, 'POST application/json {"size":1}');
      agent.destroy();
    },
  );
  const agent = new http.Agent();
  const refused = await sendRequest(agent, { method: 'GET', url: new URL('http://127.0.0.1:1/') });
  t.is(refused.status, 0);
  t.is(refused.error, 'ECONNREFUSED');
});

test('assertLoopback refuses other hosts', (t) => {
  t.is(assertLoopback('http://127.0.0.1:9200', 'Elasticsearch').port, '9200');
  t.notThrows(() => assertLoopback('http://localhost:3000', 'The server'));
  t.notThrows(() => assertLoopback('http://[::1]:3000', 'The server'));
  t.throws(() => assertLoopback('http://10.0.0.5:9200', 'Elasticsearch'), { message: /not on 127.0.0.1/ });
});

test('workload requests carry the eval question', (t) => {
  const entries = [{ index: 0, library: '/expressjs/expressjs.com', version: '4', query: 'routing?', intent: 'x', qrels: [] }];
  const [c] = contextRequests('http://127.0.0.1:3000', entries, 'smk_k');
  t.is(c.url.pathname, '/v2/context');
  t.deepEqual(Object.fromEntries(c.url.searchParams), { libraryId: '/expressjs/expressjs.com/4', query: 'routing?' }, 'the default (txt) form');
  t.is(c.headers?.authorization, 'Bearer smk_k');
  const [j] = contextRequests('http://127.0.0.1:3000', entries, undefined, 'json');
  t.is(j.url.searchParams.get('type'), 'json');
  t.is(j.headers?.authorization, undefined);
  const [s] = searchRequests('http://127.0.0.1:3000', entries);
  t.deepEqual(Object.fromEntries(s.url.searchParams), { libraryName: 'expressjs.com', query: 'routing?' });
  t.is(s.headers?.authorization, undefined);
  t.is(libraryNameOf('/koajs/koa'), 'koa');
});

test('floorRatios pairs server and floor runs by concurrency', (t) => {
  const run = (target: string, concurrency: number, p50: number): RunResult => ({
    target,
    concurrency,
    statuses: {},
    errors: [],
    summary: { ok: 1, failed: 0, rps: 1, min: p50, mean: p50, p50, p95: p50, p99: p50, max: p50 },
  });
  const runs = [run('context', 1, 6), run('es', 1, 2), run('context', 8, 9), run('context (json)', 1, 7), run('libs/search', 1, 1)];
  t.deepEqual(floorRatios(runs, ['context', 'context (json)'], 'es'), [
    { target: 'context', concurrency: 1, serverP50: 6, floorP50: 2, ratio: 3 },
    { target: 'context (json)', concurrency: 1, serverP50: 7, floorP50: 2, ratio: 3.5 },
  ]);
  t.regex(formatRatios(floorRatios(runs, ['context'], 'es')), /context\s+1\s+6\.0\s+2\.0\s+3\.00/);
});

test('parseProcStat reads utime + stime after a command name with spaces and parentheses', (t) => {
  const line = '4242 (node (tsx) x) S 1 4242 4242 0 -1 4194560 9060 0 0 0 150 37 0 0 20 0 11 0 123 456 789';
  t.is(parseProcStat(line), 187);
  t.is(parseProcStat('garbage'), undefined);
});

test('CpuMeter counts this process per request; formatCpu prints one row per measured run', (t) => {
  const meter = new CpuMeter({ bench: process.pid });
  const perRequest = meter.start();
  // Burn 80 ms of this process's CPU (not of wall time: parallel tests share the cores).
  const used = process.cpuUsage();
  while (process.cpuUsage(used).user < 80_000) Math.sqrt(Math.random());
  const cpu = perRequest(2);
  t.true((cpu.bench ?? 0) >= 20, JSON.stringify(cpu)); // ~40 ms per request, counted in 10 ms clock ticks
  const table = formatCpu([
    { target: 'context', concurrency: 8, summary: {} as never, statuses: {}, errors: [], cpuMsPerRequest: { server: 1.5, elasticsearch: 2.5 } },
    { target: 'no figures', concurrency: 8, summary: {} as never, statuses: {}, errors: [] },
  ]);
  t.regex(table, /context\s+8\s+1\.50\s+2\.50\s+-\s+-\s+4\.00/);
  t.notRegex(table, /no figures/);
});

test('scale-bench rounds: each figure is the median of its rounds, statuses summed, peak RSS the highest', (t) => {
  const round = (p50: number, p99: number, peak: number): SizeFigures => ({
    libraries: 16,
    snippets: 100,
    search: [{ clients: 8, p50, p99, rps: 100, statuses: { '200': 10, '404': 1 } }],
    context: [{ clients: 8, p50: p50 * 2, p99, rps: 50, statuses: { '200': 5 } }],
    serverRssMb: 500,
    serverPeakRssMb: peak,
    esHeapUsedMb: 1,
    esHeapMaxMb: 2,
    esDiskMb: 3,
    loadAverage: '1 1 1',
  });
  const combined = medianOfRounds([round(9, 40, 600), round(5, 20, 700), round(6, 90, 650)]);
  t.deepEqual(combined.search[0], { clients: 8, p50: 6, p99: 40, rps: 100, statuses: { '200': 30, '404': 3 } });
  t.is(combined.context[0].p50, 12);
  t.is(combined.serverPeakRssMb, 700);
  t.is(medianOfRounds([round(4, 10, 1), round(8, 30, 1)]).search[0].p50, 6, 'an even count takes the mean of the middle two');
  t.throws(() => medianOfRounds([]));
});
