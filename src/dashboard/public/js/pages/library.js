// One library: details, its versions (builds), recent jobs, refresh, trust score, delete.
import { crawlReport } from './crawl-report.js';
import { h, mount, field, formatDate, formatNumber, stateBadge } from '../dom.js';
import { get, post, patch, del, libraryPath, ApiError } from '../api.js';
import { busy, confirmDialog, every, flash, page, showError, table } from '../ui.js';
import { navigate } from '../router.js';
import { isAdmin } from '../session.js';
import { jobsTable, jobHref } from './jobs.js';

export async function renderLibrary({ root, params, query, signal }) {
  const id = params.id;
  const path = `/libraries/${libraryPath(id)}`;
  // Which copy: a team's private one (?team=), else the one the API resolves for this user.
  const copy = query?.get('team') ? { teamId: query.get('team') } : undefined;
  const body = h('div', h('p.muted', 'Loading…'));
  const errors = h('div');
  mount(root, ...page(id, errors, body));

  let lib;
  let drawn = '';
  const load = async () => {
    lib = await get(path, copy, { signal });
    // Redraw only on change, so a poll does not reset what is being typed.
    const snapshot = JSON.stringify(lib);
    if (snapshot !== drawn) draw();
    drawn = snapshot;
    return lib.state === 'queued' || lib.state === 'processing' || (lib.jobs ?? []).some((j) => !['finalized', 'failed', 'cancelled'].includes(j.state));
  };

  const draw = () => {
    root.querySelector('h1').textContent = lib.title || lib.id;
    document.title = `${lib.title || lib.id} · Shelfmark`;
    const repo = lib.repoUrl ? h('a', { href: lib.repoUrl, rel: 'noopener noreferrer', target: '_blank' }, lib.repoUrl) : '—';
    mount(
      body,
      h(
        'div.panel',
        h('p.mono', lib.id, ' ', stateBadge(lib.state), lib.private ? h('span.badge.warn', ' private') : null),
        lib.description ? h('p', lib.description) : null,
        h(
          'dl.facts',
          fact('Source', sourceText(lib)),
          lib.sourceOptions?.url ? fact('Site', h('a', { href: lib.sourceOptions.url, rel: 'noopener noreferrer', target: '_blank' }, lib.sourceOptions.url)) : fact('Repository', repo),
          lib.sourceOptions?.source === 'website' ? fact('Crawl options', `scope ${lib.sourceOptions.scope}, at most ${formatNumber(lib.sourceOptions.maxPages)} pages, depth ${lib.sourceOptions.maxDepth}${lib.sourceOptions.include.length ? `, include ${lib.sourceOptions.include.join(' ')}` : ''}${lib.sourceOptions.exclude.length ? `, exclude ${lib.sourceOptions.exclude.join(' ')}` : ''}`) : null,
          lib.sourceOptions?.source === 'archive' ? fact('Uploaded file', lib.sourceOptions.fileName) : null,
          lib.sourceOptions ? null : fact('Branch', lib.branch || '—'),
          fact('Snippets', formatNumber(lib.totalSnippets)),
          fact('Tokens', formatNumber(lib.totalTokens)),
          fact('Trust score', `${formatNumber(lib.trustScore)} / 10`),
          fact('Benchmark score', `${formatNumber(lib.benchmarkScore)} / 100`),
          fact('Last update', formatDate(lib.lastUpdateDate)),
          fact('Refresh schedule', scheduleText(lib.schedule)),
          fact('Last checked', lib.schedule?.lastCheckedAt ? formatDate(lib.schedule.lastCheckedAt) : '—'),
          fact('Next check', lib.schedule?.nextCheckAt ? formatDate(lib.schedule.nextCheckAt) : 'never'),
          lib.schedule?.lastError ? fact('Last check failed', `${lib.schedule.lastError} (${lib.schedule.failures} in a row; checks back off)`) : null,
        ),
        h('div.actions', refreshButton(), h('a.button.secondary', { href: `#/playground?library=${encodeURIComponent(lib.id)}` }, 'Try in the playground'), deleteButton()),
      ),
      h('h2', 'Versions'),
      table(
        [
          { label: 'Version', cell: (b) => h('code', b.version) },
          { label: 'Ref', cell: (b) => [b.ref || '—', (b.tags ?? []).length ? h('div.small.muted', `tags: ${b.tags.join(', ')}`) : null] },
          { label: 'Commit', cell: (b) => h('code', (b.commit ?? '').slice(0, 10) || '—') },
          { label: 'State', cell: (b) => stateBadge(b.state) },
          { label: 'Snippets', num: true, cell: (b) => formatNumber(b.totalSnippets) },
          { label: 'Tokens', num: true, cell: (b) => formatNumber(b.totalTokens) },
          { label: 'Benchmark', num: true, cell: (b) => [formatNumber(b.benchmarkScore), qualityNotes(b)] },
          { label: 'Updated', cell: (b) => formatDate(b.lastUpdateDate) },
        ],
        lib.builds ?? [],
        { empty: 'No version has been built yet.' },
      ),
      crawlReport(lib.crawl, { heading: 'Latest crawl report' }),
      h('h2', 'Recent jobs'),
      jobsTable(lib.jobs ?? []),
      isAdmin() ? trustForm() : null,
    );
  };

  const fact = (k, v) => [h('dt', k), h('dd', v)];
  const sourceText = (l) => ({ website: 'website (crawled)', llmstxt: 'llms.txt', archive: 'uploaded archive', openapi: 'OpenAPI upload' })[l.source] ?? `Git (${l.source})`;

  /** Why a build's benchmark score is what it is: the checks most snippets fail. */
  const qualityNotes = (b) => {
    const issues = (b.qualityIssues ?? []).slice(0, 4);
    if (issues.length === 0) return null;
    return h('div.small.muted.quality-notes', issues.map((q) => `${q.issue}: ${formatNumber(q.snippets)}`).join(' · '));
  };

  const refreshButton = () => {
    if (lib.source === 'openapi') return null;
    return h('button', {
      type: 'button',
      onclick: async (e) => {
        const button = e.currentTarget;
        await busy(button, async () => {
          const before = new Set((lib.jobs ?? []).map((j) => j.id));
          // The refresh call answers when the build ends; follow the job meanwhile.
          // The job page tells how it ends; these messages are for when no job was seen.
          let followed = false;
          const done = post('/refresh', { libraryName: lib.id }).then(
            () => { if (!followed) flash('ok', `${lib.id} is up to date.`); },
            (error) => { if (!followed && !(error instanceof ApiError && error.status === 504)) showError(errors, error); },
          );
          const job = await findNewJob(lib.id, before, done, signal);
          if (job) {
            followed = true;
            navigate(jobHref(job.id).slice(1));
          } else {
            await done;
            await load();
          }
        }, { label: 'Refreshing…' });
      },
    }, 'Refresh');
  };

  const deleteButton = () =>
    h('button.danger', {
      type: 'button',
      onclick: async (e) => {
        const button = e.currentTarget;
        const ok = await confirmDialog({ title: `Delete ${lib.id}?`, message: 'All its versions and snippets are removed; clients can no longer query it. This cannot be undone (you can add it again later).', confirmLabel: 'Delete library', danger: true });
        if (!ok) return;
        await busy(button, async () => {
          await del(path, { query: copy });
          flash('ok', `${lib.id} was deleted.`, { next: true });
          navigate('/libraries');
        }, { errorSlot: errors });
      },
    }, 'Delete');

  const trustForm = () => {
    const input = h('input', { type: 'number', min: 0, max: 10, step: 0.1, value: String(lib.trustScore ?? ''), required: true });
    const save = h('button', { type: 'submit' }, 'Save');
    const formErrors = h('div');
    const form = h('form.panel.narrow', h('h2', 'Trust score'), formErrors, h('div.row', field('Trust score (0–10)', input, 'Used by policies (minimum trust score) and search ranking.'), h('div.field', save)));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      await busy(save, async () => {
        await patch(path, { trustScore: Number(input.value) }, { query: copy });
        flash('ok', 'Trust score saved.');
        await load();
      }, { errorSlot: formErrors });
    });
    return form;
  };

  try {
    if (await load()) every(2000, load, signal);
  } catch (error) {
    if (error.name !== 'AbortError') showError(body, error);
  }
}

/**
 * Waits for a job of `libraryId` that is not in `before` to appear (polling the job list),
 * or for `done` to settle first. Returns the job or undefined.
 */
/** "every 24 h (source default)", "never", …: what the scheduler will do. */
function scheduleText(schedule) {
  if (!schedule || schedule.everyHours === null) return schedule?.mode === 'never' ? 'never' : 'never (source default)';
  return `every ${schedule.everyHours} h${schedule.mode === 'default' ? ' (source default)' : ''}`;
}

export async function findNewJob(libraryId, before, done, signal, kind) {
  let settled = false;
  done.then(() => { settled = true; }, () => { settled = true; }); // (not .finally: its promise would reject unhandled)
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
