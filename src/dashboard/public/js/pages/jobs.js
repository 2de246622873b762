// Indexing jobs: the list, and one job with live progress and its log (polled every second
// while it runs).
import { h, mount, formatDate, formatNumber, stateBadge } from '../dom.js';
import { get, del } from '../api.js';
import { busy, confirmDialog, every, flash, page, showError, table, TERMINAL_JOB_STATES } from '../ui.js';
import { libraryHref } from './libraries.js';

const STAGES = ['queued', 'cloning', 'parsing', 'indexing', 'finalized'];

export const jobHref = (id) => `#/jobs/${encodeURIComponent(id)}`;

function progressText(job) {
  const p = job.progress ?? {};
  const done = (p.filesParsed ?? 0) + (p.filesSkipped ?? 0) + (p.filesReused ?? 0);
  return p.filesTotal ? `${formatNumber(done)} / ${formatNumber(p.filesTotal)} files` : '—';
}

/** The live part of a job: stage, progress bar, counts, error. */
export function jobSummary(job) {
  const p = job.progress ?? {};
  const done = (p.filesParsed ?? 0) + (p.filesSkipped ?? 0) + (p.filesReused ?? 0);
  const terminal = TERMINAL_JOB_STATES.includes(job.state);
  const stageIndex = STAGES.indexOf(job.state);
  return h(
    'div.spaced',
    h('p', 'State: ', stateBadge(job.state), job.attempts > 1 ? h('span.small.muted', ` (attempt ${job.attempts})`) : null),
    h(
      'ol.small.muted',
      { 'aria-label': 'Stages', class: 'stages' },
      STAGES.map((s, i) => h('li', { 'aria-current': s === job.state ? 'step' : undefined }, i < stageIndex || job.state === 'finalized' ? `✓ ${s}` : s === job.state ? `▸ ${s}` : s)),
    ),
    h('progress', { max: Math.max(p.filesTotal ?? 0, 1), value: job.state === 'finalized' ? Math.max(p.filesTotal ?? 0, 1) : done, 'aria-label': 'Files processed' }),
    h('p.small', `${progressText(job)} · parsed ${formatNumber(p.filesParsed ?? 0)}, reused ${formatNumber(p.filesReused ?? 0)}, skipped ${formatNumber(p.filesSkipped ?? 0)} · ${formatNumber(p.snippets ?? 0)} snippets${p.snippetsEmbedded ? `, ${formatNumber(p.snippetsEmbedded)} with vectors` : ''}`),
    job.error ? h('div.alert.error', job.errorCode ? `${job.error} (${job.errorCode})` : job.error) : null,
    terminal && job.finishedAt ? h('p.small.muted', `Finished ${formatDate(job.finishedAt)}.`) : null,
  );
}

/** The job's log as a list (newest last). */
export function jobLog(job) {
  const entries = job.log ?? [];
  if (entries.length === 0) return h('p.muted', 'No log lines yet.');
  return h('ul.log', { 'aria-label': 'Job log' }, entries.map((e) => h('li', { class: e.level }, `${new Date(e.at).toLocaleTimeString()}  ${e.level.toUpperCase().padEnd(5)} ${e.message}`)));
}

export function jobsTable(jobs, { empty = 'No jobs yet.' } = {}) {
  return table(
    [
      { label: 'Job', cell: (j) => h('a.mono', { href: jobHref(j.id) }, String(j.id).slice(0, 12)) },
      { label: 'Library', cell: (j) => h('a', { href: libraryHref(j.libraryId) }, j.libraryId) },
      { label: 'Version', cell: (j) => j.version },
      { label: 'Kind', cell: (j) => j.kind },
      { label: 'State', cell: (j) => stateBadge(j.state) },
      { label: 'Progress', cell: (j) => progressText(j) },
      { label: 'Created', cell: (j) => formatDate(j.createdAt) },
      { label: 'Finished', cell: (j) => formatDate(j.finishedAt) },
    ],
    jobs,
    { empty },
  );
}

export async function renderJobs({ root, signal }) {
  const slot = h('div', h('p.muted', 'Loading jobs…'));
  mount(root, ...page('Jobs', h('p.muted', 'Every add and refresh runs as a job. Running jobs update by themselves.'), slot));
  const load = async () => {
    const { jobs = [] } = await get('/jobs', { limit: 100 }, { signal });
    mount(slot, jobsTable(jobs));
    return true; // keep watching: new jobs may arrive
  };
  try {
    await load();
    every(2000, load, signal);
  } catch (error) {
    if (error.name !== 'AbortError') showError(slot, error);
  }
}

export async function renderJob({ root, params, signal }) {
  const id = params.id;
  const heading = h('h1', 'Job');
  const meta = h('p.muted');
  const summary = h('div.panel', { 'aria-live': 'polite', 'aria-busy': 'true' }, h('p.muted', 'Loading…'));
  const log = h('div');
  const errors = h('div');
  const cancel = h('button.secondary', { type: 'button', hidden: true }, 'Cancel job');
  mount(root, heading, meta, errors, h('div.actions', cancel), summary, h('h2', 'Log'), log);
  document.title = 'Job · Shelfmark';

  cancel.addEventListener('click', async () => {
    const ok = await confirmDialog({ title: 'Cancel this job?', message: 'The build stops; the version currently served stays as it is.', confirmLabel: 'Cancel job', danger: true });
    if (!ok) return;
    await busy(cancel, async () => {
      await del(`/jobs/${encodeURIComponent(id)}`);
      flash('ok', 'The job was cancelled.');
      await load();
    }, { errorSlot: errors });
  });

  const load = async () => {
    const job = await get(`/jobs/${encodeURIComponent(id)}`, undefined, { signal });
    heading.textContent = `Job for ${job.libraryId}`;
    mount(meta, `${job.kind} of version “${job.version}” · created ${formatDate(job.createdAt)} · `, h('a', { href: libraryHref(job.libraryId) }, 'library page'));
    const terminal = TERMINAL_JOB_STATES.includes(job.state);
    summary.setAttribute('aria-busy', String(!terminal));
    summary.dataset.state = job.state;
    mount(summary, jobSummary(job));
    const list = log.querySelector('.log');
    const stick = !list || list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    mount(log, jobLog(job));
    const fresh = log.querySelector('.log');
    if (fresh && stick) fresh.scrollTop = fresh.scrollHeight;
    cancel.hidden = terminal;
    return !terminal;
  };
  try {
    if (await load()) every(1000, load, signal);
  } catch (error) {
    if (error.name !== 'AbortError') showError(summary, error);
  }
}
