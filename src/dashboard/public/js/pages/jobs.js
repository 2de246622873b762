// Indexing jobs: the list (filters by state and library, rows updated in place while jobs
// run, polling stops when nothing runs) and one job with its stages, progress and log tail.
// Nothing is rebuilt under the user: rows and cells are patched, so keyboard focus and a
// screen reader's position stay where they were.
import { crawlReport } from './crawl-report.js';
import { h, mount, formatDate, formatNumber, stateBadge, field } from '../dom.js';
import { get, del, post } from '../api.js';
import { busy, confirmDialog, every, errorBox, flash, page, showError, tableRow, TERMINAL_JOB_STATES } from '../ui.js';
import { navigate } from '../router.js';
import { libraryHref } from './libraries.js';

const STAGES = ['queued', 'cloning', 'parsing', 'indexing', 'finalized'];
const RUNNING = ['queued', 'cloning', 'parsing', 'indexing'];

export const jobHref = (id) => `#/jobs/${encodeURIComponent(id)}`;

/**
 * Files done out of files to do. filesTotal counts the files selected for parsing; skipped
 * files (other versions, other languages, too large) were never among them, so they are
 * reported beside the count, not added to it.
 */
export function fileCounts(job) {
  const p = job.progress ?? {};
  const total = p.filesTotal ?? 0;
  const done = Math.min((p.filesParsed ?? 0) + (p.filesReused ?? 0), total);
  return { done: job.state === 'finalized' ? total : done, total };
}

function progressText(job) {
  const { done, total } = fileCounts(job);
  return total ? `${formatNumber(done)} / ${formatNumber(total)} files` : '—';
}

/** The stage list: done ✓, current ▸, the failing one ✗ (with its name said in words). */
function stageList(job) {
  const failedAt = job.state === 'failed' ? (job.failedStage ?? null) : null;
  const currentIndex = STAGES.indexOf(failedAt ?? job.state);
  return h(
    'ol.small.muted',
    { 'aria-label': 'Stages', class: 'stages' },
    STAGES.map((s, i) => {
      const name = stageName(job, s).toLowerCase();
      if (failedAt === s) return h('li.failed', { 'aria-current': 'step', 'data-stage': s }, `✗ ${name} (failed here)`);
      if (job.state === 'finalized' || i < currentIndex) return h('li', { 'data-stage': s }, `✓ ${name}`);
      if (s === job.state) return h('li', { 'aria-current': 'step', 'data-stage': s }, `▸ ${name}`);
      return h('li', { 'data-stage': s }, name);
    }),
  );
}

const WORK_STAGES = ['cloning', 'parsing', 'indexing'];
const STAGE_NAMES = { queued: 'queued', cloning: 'Cloning', parsing: 'Parsing', indexing: 'Indexing', finalized: 'finalized' };
/** What the first working stage does for each kind of source: only a Git repository is cloned. */
const FETCH_NAMES = {
  git: 'Cloning',
  github: 'Cloning',
  gitlab: 'Cloning',
  bitbucket: 'Cloning',
  openapi: 'Reading the file',
  website: 'Crawling',
  llmstxt: 'Fetching',
  archive: 'Unpacking',
};

/** A stage's name for this job's source ("Reading the file" for an upload, not "Cloning"). */
export function stageName(job, stage) {
  if (stage === 'cloning') return FETCH_NAMES[job.source] ?? 'Fetching';
  return STAGE_NAMES[stage] ?? stage;
}

/**
 * Each working stage as { stage, status, value, max, detail }: status is done, running,
 * failed, stopped (a cancelled job's last stage), waiting or skipped (not reached by a job
 * that ended early); value is null while a running stage has no measure yet (the bar is then
 * indeterminate). Parsing is measured in files (parsed + reused of the files to parse),
 * indexing in snippets (written of found).
 */
export function stageProgress(job) {
  const p = job.progress ?? {};
  const { done: filesDone, total: filesTotal } = fileCounts(job);
  const snippets = p.snippets ?? 0;
  const indexed = Math.min(p.snippetsIndexed ?? 0, snippets);
  // How far the job got: the stage it is in, failed in, or (cancelled) the last it measurably reached.
  let at;
  if (job.state === 'finalized') at = WORK_STAGES.length;
  else if (job.state === 'failed') at = WORK_STAGES.indexOf(job.failedStage ?? '');
  else if (job.state === 'cancelled') at = indexed > 0 ? 2 : filesTotal > 0 || snippets > 0 ? 1 : 0;
  else at = WORK_STAGES.indexOf(job.state); // queued: -1
  const ended = TERMINAL_JOB_STATES.includes(job.state);
  const measure = {
    cloning: { value: null, max: 1, unit: null },
    parsing: {
      value: filesTotal ? filesDone : null,
      max: Math.max(filesTotal, 1),
      unit: filesTotal ? `${formatNumber(filesDone)} of ${formatNumber(filesTotal)} files` : null,
    },
    indexing: {
      value: snippets ? indexed : null,
      max: Math.max(snippets, 1),
      unit: snippets ? `${formatNumber(indexed)} of ${formatNumber(snippets)} snippets` : null,
    },
  };
  return WORK_STAGES.map((stage, i) => {
    const m = measure[stage];
    if (i < at)
      return {
        stage,
        status: 'done',
        value: m.max,
        max: m.max,
        detail: stage === 'cloning' ? 'done' : `done${m.unit ? ` · ${m.unit.replace(/^[\d,]+ of /, '')}` : ''}`,
      };
    if (i === at && job.state === 'failed')
      return { stage, status: 'failed', value: m.value ?? 0, max: m.max, detail: `failed here${m.unit ? ` · ${m.unit}` : ''}` };
    if (i === at && job.state === 'cancelled')
      return { stage, status: 'stopped', value: m.value ?? 0, max: m.max, detail: `cancelled${m.unit ? ` · ${m.unit}` : ''}` };
    if (i === at) return { stage, status: 'running', value: m.value, max: m.max, detail: m.unit ?? 'under way' };
    return { stage, status: ended || job.state === 'failed' ? 'skipped' : 'waiting', value: 0, max: m.max, detail: ended ? 'not reached' : 'waiting' };
  });
}

/** A bar per working stage; `compact` (the jobs list) leaves the words to a tooltip and the accessible name. */
export function stageBars(job, { compact = false } = {}) {
  return h(
    compact ? 'ul.stage-bars.compact' : 'ul.stage-bars',
    { 'aria-label': 'Progress by stage' },
    stageProgress(job).map(({ stage, status, value, max, detail }) => {
      const label = `${stageName(job, stage)}: ${detail}`;
      const bar = h('progress', { max, 'aria-label': label, title: compact ? label : undefined });
      if (value !== null) bar.value = Math.min(value, max); // no value: an indeterminate bar
      return h(
        `li.${status}`,
        { 'data-stage': stage },
        compact ? null : h('span.stage-name', stageName(job, stage)),
        bar,
        compact ? h('span.visually-hidden', label) : h('span.small.stage-detail', status === 'failed' ? `✗ ${detail}` : detail),
      );
    }),
  );
}

/** The live part of a job: stage, progress bar, counts, error (shown once, here). */
export function jobSummary(job) {
  const p = job.progress ?? {};
  const terminal = TERMINAL_JOB_STATES.includes(job.state);
  return h(
    'div.spaced',
    h('p', 'State: ', stateBadge(job.state), job.attempts > 1 ? h('span.small.muted', ` (attempt ${job.attempts})`) : null),
    stageList(job),
    stageBars(job),
    h(
      'p.small',
      `${progressText(job)} · parsed ${formatNumber(p.filesParsed ?? 0)}, reused unchanged ${formatNumber(p.filesReused ?? 0)} · ${formatNumber(p.filesSkipped ?? 0)} files left out by the doc filter · ${formatNumber(p.snippets ?? 0)} snippets${p.snippetsEmbedded ? `, ${formatNumber(p.snippetsEmbedded)} with vectors` : ''} · files ${formatNumber(p.filesAdded ?? 0)} added, ${formatNumber(p.filesChanged ?? 0)} changed, ${formatNumber(p.filesRemoved ?? 0)} removed${job.trigger ? ` · started by ${job.trigger}` : ''}`,
    ),
    job.error
      ? errorBox(
          { code: job.errorCode, message: job.error },
          { title: job.failedStage ? `Failed while ${stageName(job, job.failedStage).toLowerCase()}.` : job.state === 'cancelled' ? 'Cancelled.' : undefined },
        )
      : null,
    terminal && job.finishedAt ? h('p.small.muted', `Finished ${formatDate(job.finishedAt)}.`) : null,
  );
}

/** The job's log as a list (newest last). */
export function jobLog(job) {
  const entries = job.log ?? [];
  if (entries.length === 0) return h('p.muted', 'No log lines yet.');
  // Focusable, so the log scrolls by keyboard too (it is a scrolling region of its own).
  return h('ul.log', { 'aria-label': 'Job log', tabindex: '0' }, entries.map(logLine));
}

const logLine = (e) => h('li', { class: e.level }, `${new Date(e.at).toLocaleTimeString()}  ${e.level.toUpperCase().padEnd(5)} ${e.message}`);

const COLUMNS = [
  { label: 'Job', cell: (j) => h('a.mono', { href: jobHref(j.id) }, String(j.id).slice(0, 12)) },
  { label: 'Library', cell: (j) => h('a', { href: libraryHref(j.libraryId) }, j.libraryId) },
  { label: 'Version', cell: (j) => j.version },
  { label: 'Kind', cell: (j) => [j.kind, j.trigger && j.trigger !== 'manual' ? h('div.small.muted', `by ${j.trigger}`) : null] },
  { label: 'State', live: true, cell: (j) => [stateBadge(j.state), j.failedStage ? h('span.small', ` at ${j.failedStage}`) : null] },
  { label: 'Progress', live: true, cell: (j) => [stageBars(j, { compact: true }), h('span.small', progressText(j))] },
  { label: 'Created', cell: (j) => formatDate(j.createdAt) },
  { label: 'Finished', live: true, cell: (j) => formatDate(j.finishedAt) },
];

/** A plain table of jobs (the library page uses it too). */
export function jobsTable(jobs, { empty = 'No jobs yet.' } = {}) {
  if (jobs.length === 0) return h('p.muted', empty);
  return h(
    'div.table-wrap',
    h(
      'table.cards',
      h(
        'thead',
        h(
          'tr',
          COLUMNS.map((c) => h('th', { scope: 'col' }, c.label)),
        ),
      ),
      h(
        'tbody',
        jobs.map((j) => tableRow(COLUMNS, j)),
      ),
    ),
  );
}

/** Patches a table body to show `jobs`: rows are kept by job id, only changed cells are replaced. */
function patchRows(tbody, jobs, actions) {
  const columns = [...COLUMNS, { label: 'Actions', live: true, cell: actions }];
  const existing = new Map([...tbody.children].map((tr) => [tr.dataset.id, tr]));
  let previous = null;
  for (const job of jobs) {
    const signature = JSON.stringify([job.state, job.failedStage, job.progress, job.finishedAt]); // progress includes snippetsIndexed
    let tr = existing.get(job.id);
    if (!tr) {
      tr = tableRow(columns, job);
      tr.dataset.id = job.id;
    } else if (tr.dataset.sig !== signature) {
      columns.forEach((c, i) => {
        if (!c.live) return;
        const td = tr.children[i];
        const fresh = tableRow([c], job).firstChild;
        // innerHTML, not text: a bar's value is an attribute (no live cell holds a focusable control but Actions)
        if (td.innerHTML !== fresh.innerHTML || c.label === 'Actions') td.replaceWith(fresh);
      });
    }
    tr.dataset.sig = signature;
    existing.delete(job.id);
    const want = previous ? previous.nextSibling : tbody.firstChild;
    if (want !== tr) tbody.insertBefore(tr, want);
    previous = tr;
  }
  for (const tr of existing.values()) {
    if (tr.contains(document.activeElement)) (tr.nextElementSibling ?? tr.previousElementSibling)?.querySelector('a')?.focus();
    tr.remove();
  }
}

export async function renderJobs({ root, query, signal }) {
  const state = h(
    'select',
    { name: 'state' },
    [
      ['', 'Any state'],
      ['running', 'Running or queued'],
      ['failed', 'Failed'],
      ['finalized', 'Finished'],
      ['cancelled', 'Cancelled'],
    ].map(([v, l]) => h('option', { value: v }, l)),
  );
  const library = h('select', { name: 'library' }, h('option', { value: '' }, 'Any library'));
  state.value = query.get('state') ?? '';
  const filters = h('form.filters', { role: 'search', 'aria-label': 'Filter jobs' }, field('State', state), field('Library', library));
  const status = h('p.small.muted', { role: 'status' });
  const errors = h('div');
  const tbody = h('tbody');
  const empty = h('p.muted', { hidden: true }, 'No jobs match.');
  const tableEl = h(
    'div.table-wrap',
    h(
      'table.cards',
      h(
        'thead',
        h(
          'tr',
          [...COLUMNS, { label: 'Actions' }].map((c) => h('th', { scope: 'col' }, c.label)),
        ),
      ),
      tbody,
    ),
  );
  mount(
    root,
    ...page(
      'Jobs',
      h('p.muted', 'Every add and refresh runs as a job. While jobs run, this list follows them; it stops when nothing runs.'),
      filters,
      status,
      errors,
      tableEl,
      empty,
    ),
  );

  let all = [];
  let watching = null; // the AbortController of the polling loop, while it runs
  const actions = (j) =>
    RUNNING.includes(j.state)
      ? h(
          'button.secondary',
          { type: 'button', 'aria-label': `Cancel job ${String(j.id).slice(0, 12)}`, onclick: (e) => cancelJob(j, e.currentTarget, errors, load) },
          'Cancel',
        )
      : h(
          'button.secondary',
          { type: 'button', 'aria-label': `Remove job ${String(j.id).slice(0, 12)}`, onclick: (e) => removeJob(j, e.currentTarget, errors, load) },
          'Remove',
        );

  const show = () => {
    const wantLib = library.value;
    const wantState = state.value;
    const rows = all.filter(
      (j) => (!wantLib || j.libraryId === wantLib) && (!wantState || (wantState === 'running' ? RUNNING.includes(j.state) : j.state === wantState)),
    );
    patchRows(tbody, rows, actions);
    tableEl.hidden = rows.length === 0;
    empty.hidden = rows.length !== 0;
    empty.textContent = all.length === 0 ? 'No jobs yet. Adding a library starts one.' : 'No jobs match these filters.';
  };
  const fillLibraries = () => {
    const names = [...new Set(all.map((j) => j.libraryId))].sort();
    const have = [...library.options].map((o) => o.value).slice(1);
    if (JSON.stringify(names) === JSON.stringify(have)) return;
    const keep = library.value || query.get('library') || '';
    mount(
      library,
      h('option', { value: '' }, 'Any library'),
      names.map((n) => h('option', { value: n }, n)),
    );
    library.value = names.includes(keep) ? keep : '';
  };
  const load = async () => {
    const { jobs = [] } = await get('/jobs', { limit: 200 }, { signal });
    all = jobs;
    fillLibraries();
    show();
    const running = all.some((j) => RUNNING.includes(j.state));
    if (!running && watching) {
      watching.abort(); // whoever saw it idle first (a tick, a cancel) ends the loop
      watching = null;
    }
    if (running) mount(status, 'Following running jobs…');
    else
      mount(
        status,
        h(
          'span.idle',
          'Nothing is running, so this list is not updating.',
          h(
            'button.link',
            {
              type: 'button',
              onclick: () => {
                load().then(watch, (error) => showError(errors, error));
              },
            },
            'Check again',
          ),
        ),
      );
    return running;
  };
  const watch = (running) => {
    if (!running || watching) return;
    const loop = new AbortController();
    signal.addEventListener('abort', () => loop.abort());
    watching = loop;
    every(2000, load, loop.signal);
  };
  const syncUrl = () => {
    const q = new URLSearchParams();
    if (state.value) q.set('state', state.value);
    if (library.value) q.set('library', library.value);
    // replaceState: filtering is not a navigation (no re-render, no history entry per change)
    history.replaceState(null, '', `#/jobs${q.size ? `?${q}` : ''}`);
    show();
  };
  state.addEventListener('change', syncUrl);
  library.addEventListener('change', syncUrl);
  filters.addEventListener('submit', (e) => e.preventDefault());
  try {
    watch(await load());
  } catch (error) {
    if (error.name !== 'AbortError') showError(errors, error);
  }
}

async function cancelJob(job, button, errors, after) {
  const ok = await confirmDialog({
    title: 'Cancel this job?',
    message: 'The build stops; the version currently served stays as it is.',
    confirmLabel: 'Cancel job',
    danger: true,
  });
  if (!ok) return;
  await busy(
    button,
    async () => {
      await del(`/jobs/${encodeURIComponent(job.id)}`);
      flash('ok', 'The job was cancelled.');
      await after();
    },
    { errorSlot: errors },
  );
}

async function removeJob(job, button, errors, after) {
  await busy(
    button,
    async () => {
      await del(`/jobs/${encodeURIComponent(job.id)}`);
      flash('ok', `The ${job.state} job for ${job.libraryId} was removed from the list.`);
      await after();
    },
    { errorSlot: errors },
  );
}

export async function renderJob({ root, params, signal }) {
  const id = params.id;
  const heading = h('h1', 'Job');
  const meta = h('p.muted');
  const summary = h('div.panel', { 'aria-busy': 'true' }, h('p.muted', 'Loading…'));
  const announce = h('p.visually-hidden', { role: 'status' });
  const log = h('div');
  const errors = h('div');
  const cancel = h('button.secondary', { type: 'button', hidden: true }, 'Cancel job');
  const retry = h('button', { type: 'button', hidden: true }, 'Run again');
  const remove = h('button.secondary', { type: 'button', hidden: true }, 'Remove from the list');
  const report = h('div');
  mount(root, heading, meta, errors, h('div.actions', cancel, retry, remove), announce, summary, report, h('h2', 'Log'), log);
  document.title = 'Job · Shelfmark';
  let current = null;

  cancel.addEventListener('click', async () => {
    const ok = await confirmDialog({
      title: 'Cancel this job?',
      message: 'The build stops; the version currently served stays as it is.',
      confirmLabel: 'Cancel job',
      danger: true,
    });
    if (!ok) return;
    await busy(
      cancel,
      async () => {
        await del(`/jobs/${encodeURIComponent(id)}`);
        flash('ok', 'The job was cancelled.');
        await load();
      },
      { errorSlot: errors },
    );
  });
  remove.addEventListener('click', () =>
    busy(
      remove,
      async () => {
        await del(`/jobs/${encodeURIComponent(id)}`);
        flash('ok', 'The job was removed from the list.', { next: true });
        navigate('/jobs');
      },
      { errorSlot: errors },
    ),
  );
  // Running again is a refresh of the same library version (a new job); a failed add left no
  // library to refresh, so its request goes back to the add form (a token typed again there).
  retry.addEventListener('click', () =>
    busy(
      retry,
      async () => {
        if (current.retryAdd) {
          navigate(`/add?retry=${encodeURIComponent(id)}`);
          return;
        }
        const libraryName = current.version && current.version !== 'latest' ? `${current.libraryId}/${current.version}` : current.libraryId;
        const before = new Set(((await get('/jobs', { limit: 50 }, { signal })).jobs ?? []).map((j) => j.id));
        const done = post('/refresh', { libraryName }, { signal });
        done.catch(() => undefined); // its failure is read below or shown on the new job's page
        const job = await findNewJob(undefined, before, done, signal, 'refresh');
        if (job) navigate(`/jobs/${encodeURIComponent(job.id)}`);
        else await done;
      },
      { label: 'Starting…', errorSlot: errors },
    ),
  );

  let lastState = null;
  const load = async () => {
    const job = await get(`/jobs/${encodeURIComponent(id)}`, undefined, { signal });
    current = job;
    heading.textContent = `Job for ${job.libraryId}`;
    document.title = `Job for ${job.libraryId} · Shelfmark`;
    mount(
      meta,
      `${job.kind} (${job.source ?? 'git'}) of version “${job.version}” · created ${formatDate(job.createdAt)} · `,
      h('a', { href: libraryHref(job.libraryId) }, 'library page'),
    );
    const terminal = TERMINAL_JOB_STATES.includes(job.state);
    summary.setAttribute('aria-busy', String(!terminal));
    summary.dataset.state = job.state;
    mount(summary, jobSummary(job));
    if (job.crawl && JSON.stringify(job.crawl) !== report.dataset.drawn) {
      report.dataset.drawn = JSON.stringify(job.crawl);
      mount(report, crawlReport(job.crawl));
    }
    if (job.state !== lastState) announce.textContent = `Job ${job.state}${job.failedStage ? ` while ${job.failedStage}` : ''}.`;
    lastState = job.state;
    // The log grows at the end: new lines are appended, the tail stays in view if it was.
    const list = log.querySelector('.log');
    const entries = job.log ?? [];
    if (!list || entries.length < list.children.length) {
      mount(log, jobLog(job));
      const fresh = log.querySelector('.log');
      if (fresh) fresh.scrollTop = fresh.scrollHeight;
    } else {
      const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
      for (const e of entries.slice(list.children.length)) list.append(logLine(e));
      if (stick) list.scrollTop = list.scrollHeight;
    }
    const moveFocus = [cancel, retry, remove].includes(document.activeElement) && document.activeElement;
    cancel.hidden = terminal;
    retry.hidden = !terminal || job.state === 'finalized' || job.kind === 'openapi' || (job.kind.startsWith('add-') && !job.retryAdd);
    retry.textContent = job.retryAdd ? 'Try the add again' : 'Run again';
    remove.hidden = !terminal;
    if (moveFocus && moveFocus.hidden) (retry.hidden ? remove : retry).focus();
    return !terminal;
  };
  try {
    if (await load()) every(1000, load, signal);
  } catch (error) {
    if (error.name !== 'AbortError') showError(summary, error);
  }
}

/**
 * Waits for a job of `libraryId` that is not in `before` to appear (polling the job list),
 * or for `done` to settle first. Returns the job or undefined.
 */
export async function findNewJob(libraryId, before, done, signal, kind) {
  let settled = false;
  done.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  ); // (not .finally: its promise would reject unhandled)
  const look = async () => {
    const { jobs = [] } = await get('/jobs', { limit: 20, ...(libraryId ? { libraryId } : {}) }, { signal }).catch(() => ({ jobs: [] }));
    return jobs.find((j) => !before.has(j.id) && (!kind || j.kind === kind));
  };
  for (let i = 0; i < 120 && !settled && !signal.aborted; i++) {
    const job = await look();
    if (job) return job;
    await new Promise((r) => setTimeout(r, 500));
  }
  // The call may have ended before a poll saw its job: one last look.
  return signal.aborted ? undefined : (await done.catch(() => undefined), look());
}
