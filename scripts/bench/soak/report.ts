/** The soak's console output: one line per minute, and the summary tables (pure). */
import { fixed, formatTable } from '../../eval/table';
import type { KindTotals, MinuteSummary } from './minute';
import type { Check, KillResult, MemoryJudgement } from './rules';

const ms = (v: number | null): string => (v === null ? '-' : fixed(v, 1));
const storeFigures = (m: MinuteSummary, store: 'elasticsearch' | 'mongodb'): string => {
  const s = m.stores[store];
  return `${ms(s.p50Ms)}/${ms(s.p99Ms)}${s.failed > 0 ? ` (${s.failed} failed)` : ''}`;
};

/** One minute on one line. */
export function formatMinuteLine(m: MinuteSummary, totalMinutes: number): string {
  const c = m.byClass;
  const unexpected = m.unexpected5xx + m.unexpectedOther;
  const rss = Object.entries(m.rssMb)
    .map(([server, mb]) => `${server} ${mb === null ? '-' : fixed(mb, 0)}`)
    .join(' ');
  return [
    `min ${String(m.minute).padStart(String(totalMinutes).length)}/${totalMinutes}`,
    `${m.requests} req: 2xx ${c['2xx']} 4xx ${c['4xx']} 429 ${c['429']} 5xx ${c['5xx']}${c.none > 0 ? ` none ${c.none}` : ''}`,
    `unexpected ${unexpected}${m.unexpected5xx > 0 ? ` (5xx ${m.unexpected5xx})` : ''} wedged ${m.wedges}${m.byOutcome.tolerated > 0 ? ` tolerated ${m.byOutcome.tolerated}` : ''}`,
    `p50 ${ms(m.p50Ms)} p99 ${ms(m.p99Ms)} ms`,
    `RSS ${rss} MB`,
    `ES ${storeFigures(m, 'elasticsearch')} FerretDB ${storeFigures(m, 'mongodb')} ms (livez p99 ${ms(m.livezP99Ms)})`,
    `open jobs ${m.openJobs ? `${m.openJobs.last} (max ${m.openJobs.max})` : '-'}`,
    ...(m.chaos ? ['CHAOS'] : []),
  ].join(' | ');
}

/** Every minute as a table row. */
export function formatMinuteTable(minutes: readonly MinuteSummary[], servers: readonly string[]): string {
  return formatTable(
    [
      'min',
      'req',
      '2xx',
      '4xx',
      '429',
      '5xx',
      'unexp',
      'wedge',
      'p50 ms',
      'p99 ms',
      ...servers.map((s) => `RSS ${s} MB`),
      'ES p50',
      'ES p99',
      'Mongo p50',
      'Mongo p99',
      'livez p99',
      'open jobs',
      'chaos',
    ],
    minutes.map((m) => [
      String(m.minute),
      String(m.requests),
      String(m.byClass['2xx']),
      String(m.byClass['4xx']),
      String(m.byClass['429']),
      String(m.byClass['5xx']),
      String(m.unexpected5xx + m.unexpectedOther),
      String(m.wedges),
      ms(m.p50Ms),
      ms(m.p99Ms),
      ...servers.map((s) => (m.rssMb[s] === null || m.rssMb[s] === undefined ? '-' : fixed(m.rssMb[s] ?? 0, 0))),
      ms(m.stores.elasticsearch.p50Ms),
      ms(m.stores.elasticsearch.p99Ms),
      ms(m.stores.mongodb.p50Ms),
      ms(m.stores.mongodb.p99Ms),
      ms(m.livezP99Ms),
      m.openJobs ? String(m.openJobs.max) : '-',
      m.chaos ? 'yes' : '',
    ]),
  );
}

/** Each kind of call over the whole run. */
export function formatKindTable(kinds: readonly KindTotals[]): string {
  return formatTable(
    ['call', 'count', 'statuses', 'unexpected', 'p50 ms', 'p99 ms', 'max ms'],
    kinds.map((k) => [
      k.kind,
      String(k.count),
      Object.entries(k.statuses)
        .map(([s, n]) => `${s === '0' ? 'none' : s}×${n}`)
        .join(' '),
      String(k.outcomes.unexpected + k.outcomes.wedge),
      ms(k.p50Ms),
      ms(k.p99Ms),
      ms(k.maxMs),
    ]),
  );
}

export function formatKills(kills: readonly KillResult[]): string {
  return formatTable(
    ['kill -9', 'pid', 'at s', 'jobs running', 'store reads back s', 'answered again s'],
    kills.map((k) => [
      k.target,
      k.pid === undefined ? '-' : String(k.pid),
      k.killedAt === undefined ? '-' : fixed(k.killedAt / 1000, 0),
      String(k.runningJobsAtKill),
      k.storeBackMs === null ? '-' : fixed(k.storeBackMs / 1000, 1),
      k.recoveredMs === null ? (k.error ?? 'not within 90 s') : fixed(k.recoveredMs / 1000, 1),
    ]),
  );
}

export function formatMemory(memory: readonly MemoryJudgement[]): string {
  return memory
    .map((m) =>
      m.judged
        ? `  ${m.server}: ${m.baselineMb} MB after ${m.baselineAtMs / 60_000} min → ${m.endMb} MB at the end (${m.growth >= 0 ? '+' : ''}${(m.growth * 100).toFixed(1)}%)`
        : `  ${m.server}: not judged — ${m.reason}`,
    )
    .join('\n');
}

export function formatChecks(checks: readonly Check[]): string {
  const mark = { pass: 'PASS', fail: 'FAIL', 'not judged': 'N/J ' } as const;
  return checks.map((c) => `  ${mark[c.status]}  ${c.rule}: ${c.detail}`).join('\n');
}
