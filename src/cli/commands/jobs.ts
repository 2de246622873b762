/**
 * `shelfmark jobs [<jobId>] [--library <id>] [--limit n] [--watch]`: indexing jobs. With
 * --watch the list (or the one job) is followed until every job shown has ended, with a
 * progress bar per running job on a terminal; watching one job exits 8 when it failed or
 * was cancelled.
 */
import cliProgress from 'cli-progress';
import { COMMON_USAGE, intOption, output, parseCommand, table, type Command, type Parsed } from '../command';
import { CliError, EXIT } from '../errors';

const USAGE = `Usage: shelfmark jobs [<jobId>] [--library <libraryId>] [--limit <n>] [--watch] [--interval <seconds>]

Lists indexing jobs (newest first), or shows one job with its log. --watch follows them
until they have all ended (progress bars on a terminal; with --json one JSON line per
change). Watching one job exits 0 when it finalized, 8 when it failed or was cancelled.

${COMMON_USAGE}`;

export interface JobView {
  id: string;
  kind: string;
  libraryId: string;
  version: string;
  state: string;
  progress?: { filesTotal: number; filesParsed: number; filesSkipped: number; filesReused: number; snippets: number };
  error?: string | null;
  createdAt: string;
  finishedAt?: string | null;
  log?: Array<{ at: string; level: string; message: string }>;
}

const ENDED = new Set(['finalized', 'failed', 'cancelled']);

export const jobsCommand: Command = {
  name: 'jobs',
  summary: 'list, show or follow indexing jobs',
  usage: USAGE,
  async run(argv) {
    const p = parseCommand(
      jobsCommand,
      argv,
      { library: { type: 'string' }, limit: { type: 'string' }, watch: { type: 'boolean' }, interval: { type: 'string' } },
      { min: 0, max: 1 },
    );
    const limit = intOption(p.values.limit, 'limit', { min: 1, max: 200 }) ?? 20;
    const intervalMs = (intOption(p.values.interval, 'interval', { min: 1, max: 3600 }) ?? 2) * 1000;
    const jobId = p.positionals[0];
    const fetchJobs = async (): Promise<JobView[]> =>
      jobId
        ? [await p.api.json<JobView>('GET', `/v2/jobs/${encodeURIComponent(jobId)}`)]
        : (await p.api.json<{ jobs: JobView[] }>('GET', '/v2/jobs', { query: { libraryId: p.values.library as string | undefined, limit } })).jobs;
    if (!p.values.watch) {
      const jobs = await fetchJobs();
      if (jobId) output(p, jobs[0], () => describeJob(jobs[0]));
      else output(p, { jobs }, () => table(['id', 'library', 'version', 'kind', 'state', 'progress', 'created'], jobs.map(row)));
      return;
    }
    const final = await watchJobs(p, fetchJobs, intervalMs);
    if (!p.json)
      process.stdout.write(`${jobId ? describeJob(final[0]) : table(['id', 'library', 'version', 'kind', 'state', 'progress', 'created'], final.map(row))}\n`);
    if (jobId && final[0].state !== 'finalized')
      throw new CliError(`Job ${jobId} ${final[0].state}${final[0].error ? `: ${final[0].error}` : ''}.`, EXIT.unfinished);
  },
};

function row(j: JobView): string[] {
  return [j.id, j.libraryId, j.version, j.kind, j.state, progressText(j), j.createdAt];
}

/**
 * Files done out of files to parse, as the dashboard counts them: parsed + reused (files the
 * doc filter left out are not part of `filesTotal`), all of them once the job finalized.
 */
export function fileProgress(j: Pick<JobView, 'state' | 'progress'>): { done: number; total: number } {
  const total = j.progress?.filesTotal ?? 0;
  if (j.state === 'finalized') return { done: total, total };
  return { done: Math.min((j.progress?.filesParsed ?? 0) + (j.progress?.filesReused ?? 0), total), total };
}

function progressText(j: JobView): string {
  const pr = j.progress;
  if (!pr || pr.filesTotal === 0) return pr?.snippets ? `${pr.snippets} snippets` : '-';
  const { done, total } = fileProgress(j);
  return `${done}/${total} files, ${pr.snippets} snippets`;
}

function describeJob(j: JobView): string {
  const lines = [`${j.id}  ${j.libraryId} (${j.version})  ${j.kind}  ${j.state}  ${progressText(j)}`];
  if (j.error) lines.push(`error: ${j.error}`);
  for (const l of j.log ?? []) lines.push(`  ${l.at}  ${l.level.padEnd(5)}  ${l.message}`);
  return lines.join('\n');
}

/** Polls until every job shown has ended; returns their last state. */
async function watchJobs(p: Parsed, fetchJobs: () => Promise<JobView[]>, intervalMs: number): Promise<JobView[]> {
  const bars =
    p.json || !process.stderr.isTTY
      ? undefined
      : new cliProgress.MultiBar(
          { format: ' {bar} {label}', stream: process.stderr, hideCursor: true, clearOnComplete: false },
          cliProgress.Presets.shades_classic,
        );
  const shown = new Map<string, cliProgress.SingleBar>();
  const last = new Map<string, string>();
  try {
    for (;;) {
      const jobs = await fetchJobs();
      for (const j of jobs) {
        const label = `${j.libraryId} (${j.version}) ${j.state} ${progressText(j)}`;
        if (p.json && last.get(j.id) !== label) process.stdout.write(`${JSON.stringify(j)}\n`);
        last.set(j.id, label);
        if (!bars) continue;
        const total = Math.max(j.progress?.filesTotal ?? 0, 1);
        const done = ENDED.has(j.state) ? total : fileProgress(j).done;
        const bar = shown.get(j.id) ?? bars.create(total, 0, { label });
        shown.set(j.id, bar);
        bar.setTotal(total);
        bar.update(done, { label });
      }
      if (jobs.every((j) => ENDED.has(j.state))) return jobs;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  } finally {
    bars?.stop();
  }
}

/**
 * Runs a request the server answers when its job has ended (add, refresh), showing the
 * newest job's progress meanwhile on a terminal.
 */
export async function followNewJob<T>(p: Parsed, send: () => Promise<T>): Promise<T> {
  if (p.json || !process.stderr.isTTY) return send();
  const bar = new cliProgress.SingleBar(
    { format: ' {bar} {label}', stream: process.stderr, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  const since = Date.now() - 5_000;
  bar.start(1, 0, { label: 'waiting for the server' });
  let stop = false;
  const poll = (async () => {
    while (!stop) {
      await new Promise((r) => setTimeout(r, 1000));
      const jobs = await p.api.json<{ jobs: JobView[] }>('GET', '/v2/jobs', { query: { limit: 5 } }).catch(() => ({ jobs: [] }));
      const job = jobs.jobs.find((j) => Date.parse(j.createdAt) >= since);
      if (!job || stop) continue;
      bar.setTotal(Math.max(job.progress?.filesTotal ?? 1, 1));
      bar.update(fileProgress(job).done, { label: `${job.libraryId} (${job.version}) ${job.state} ${progressText(job)}` });
    }
  })();
  try {
    return await send();
  } finally {
    stop = true;
    await poll;
    bar.stop();
  }
}
