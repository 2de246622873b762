// One library, in three tabs: Overview (what it is, its source and that source's state, its
// versions — builds of one commit shown as one —, its sources (merged libraries), recent
// jobs, refresh and delete), Snippets
// (a browser: words, kind, page, version; each snippet readable and copyable), and, for
// admins, Settings (title, description, aliases, trust, schedule, version rule, webhook).
// A member whose team's policy excludes the library is told so in words.
import { crawlReport } from './crawl-report.js';
import { h, mount, formatDate, formatNumber, stateBadge } from '../dom.js';
import { get, post, del, libraryPath, ApiError } from '../api.js';
import { busy, confirmDialog, every, flash, page, showError, table } from '../ui.js';
import { navigate } from '../router.js';
import { isAdmin, session } from '../session.js';
import { findNewJob, jobsTable, jobHref } from './jobs.js';
import { versionGroups } from './libraries.js';
import { snippetBrowser } from './library-snippets.js';
import { ruleText, settingsForms } from './library-settings.js';
import { sourcesSection } from './library-sources.js';

const TABS = [
  ['overview', 'Overview'],
  ['snippets', 'Snippets'],
  ['settings', 'Settings'],
];

export async function renderLibrary({ root, params, query, signal }) {
  const id = params.id;
  const path = `/libraries/${libraryPath(id)}`;
  // Which copy: a team's private one (?team=), else the one the API resolves for this user.
  const copy = query?.get('team') ? { teamId: query.get('team') } : undefined;
  const body = h('div', h('p.muted', 'Loading…'));
  const errors = h('div');
  mount(root, ...page(id, errors, body));
  const tab = TABS.some(([k]) => k === query?.get('tab')) ? query.get('tab') : 'overview';

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

  const tabHref = (key) => {
    const q = new URLSearchParams(query);
    if (key === 'overview') q.delete('tab');
    else q.set('tab', key);
    return `#/library${id}${q.size ? `?${q}` : ''}`;
  };
  let snippetsPanel = null;
  // Read once per page: a poll redraws the overview without asking for the sources again.
  let sources = null;
  let settingsPanel = null;
  const afterSave = async () => {
    await load();
    mount(settingsPanel, settingsForms({ path, copy, lib, reload: afterSave }));
  };
  const draw = () => {
    root.querySelector('h1').textContent = lib.title || lib.id;
    document.title = `${lib.title || lib.id} · Shelfmark`;
    const tabs = TABS.filter(([k]) => k !== 'settings' || isAdmin());
    const nav = h(
      'nav.tabs.page-tabs',
      { 'aria-label': 'Library sections' },
      tabs.map(([k, label]) => h('a', { href: tabHref(k), 'aria-current': k === tab ? 'page' : undefined }, label)),
    );
    const header = h(
      'div',
      h('p.mono', lib.id, ' ', stateBadge(lib.state), lib.private ? h('span.badge.warn', ' private') : null),
      lib.usable === false
        ? h(
            'div.alert.warn',
            { role: 'note' },
            'Your team’s library policy hides this library: its members cannot search or query it. You see it because administrators manage every library.',
          )
        : null,
    );
    if (tab === 'snippets') {
      // The browser keeps its own state across the page's polls.
      snippetsPanel ??= snippetBrowser({ path, copy, lib, signal });
      mount(body, header, nav, snippetsPanel);
    } else if (tab === 'settings' && isAdmin()) {
      // Polls leave the forms alone (what is typed stays); a save redraws them from the saved record.
      settingsPanel ??= h('div');
      if (!settingsPanel.hasChildNodes()) mount(settingsPanel, settingsForms({ path, copy, lib, reload: afterSave }));
      mount(body, header, nav, settingsPanel);
    } else mount(body, header, nav, overview());
  };

  const overview = () => [
    h(
      'div.panel',
      lib.description ? h('p', lib.description) : h('p.muted', 'No description: the docs give no summary of the project.'),
      h(
        'div.actions',
        refreshButton(),
        h('a.button.secondary', { href: `#/playground?library=${encodeURIComponent(lib.id)}` }, 'Try in the playground'),
        h('a.button.secondary', { href: tabHref('snippets') }, 'Browse snippets'),
        deleteButton(),
      ),
    ),
    h('h2', 'Source'),
    h(
      'dl.facts.panel',
      fact('Kind', sourceText(lib)),
      ...sourceFacts(lib),
      fact('Refresh schedule', scheduleText(lib.schedule)),
      fact('Last checked', lib.schedule?.lastCheckedAt ? formatDate(lib.schedule.lastCheckedAt) : 'not yet'),
      fact('Next check', lib.schedule?.nextCheckAt ? formatDate(lib.schedule.nextCheckAt) : 'never'),
      lib.schedule?.lastError ? fact('Last check failed', `${lib.schedule.lastError} (${lib.schedule.failures} in a row; checks back off)`) : null,
      fact('Push webhook', lib.webhook?.configured ? `set up ${formatDate(lib.webhook.createdAt)}` : 'none'),
      fact('Version rule', ruleText(lib.versionRule)),
      lib.aliases?.length ? fact('Aliases', lib.aliases.join(', ')) : null,
      fact('Trust score', `${formatNumber(lib.trustScore)} / 10`),
      fact('Benchmark score', `${formatNumber(lib.benchmarkScore)} / 100`),
    ),
    h('h2', 'Versions'),
    table(
      [
        { label: 'Version', cell: (g) => [h('code', g.version), g.aliases.length ? h('span.small.muted', ` = ${g.aliases.join(' = ')}`) : null] },
        { label: 'Ref', cell: (g) => g.build?.ref || '—' },
        { label: 'Commit', cell: (g) => h('code', (g.build?.commit ?? '').slice(0, 10) || '—') },
        { label: 'State', cell: (g) => stateBadge(g.build?.state ?? 'finalized') },
        { label: 'Snippets', num: true, cell: (g) => formatNumber(g.build?.totalSnippets) },
        { label: 'Tokens', num: true, cell: (g) => formatNumber(g.build?.totalTokens) },
        { label: 'Benchmark', num: true, cell: (g) => [formatNumber(g.build?.benchmarkScore), qualityNotes(g.build)] },
        { label: 'Updated', cell: (g) => formatDate(g.build?.lastUpdateDate) },
      ],
      versionGroups(lib),
      { empty: 'No version has been built yet.' },
    ),
    ...(sources ??= sourcesSection({ path, copy, lib, canManage: canManage(), signal })),
    crawlReport(lib.crawl, { heading: 'Latest crawl report' }),
    h('h2', 'Recent jobs'),
    jobsTable(lib.jobs ?? []),
  ];

  const fact = (k, v) => [h('dt', k), h('dd', v)];
  const sourceText = (l) =>
    ({ website: 'website (crawled)', llmstxt: 'llms.txt', archive: 'uploaded archive', openapi: 'OpenAPI upload' })[l.source] ?? `Git (${l.source})`;
  const link = (url) => h('a', { href: url, rel: 'noopener noreferrer', target: '_blank' }, url);
  /** Where the library is built from: a site, a file, or a repository (one on this server's disk is named, not located). */
  const sourceFacts = (l) => {
    const o = l.sourceOptions;
    if (o?.source === 'website')
      return [
        fact('Site', link(o.url)),
        fact(
          'Crawl options',
          `scope ${o.scope}, at most ${formatNumber(o.maxPages)} pages, depth ${o.maxDepth}${o.include.length ? `, include ${o.include.join(' ')}` : ''}${o.exclude.length ? `, exclude ${o.exclude.join(' ')}` : ''}`,
        ),
      ];
    if (o?.source === 'llmstxt') return [fact('llms.txt', link(o.url))];
    if (o?.source === 'archive') return [fact('Uploaded file', o.fileName)];
    if (l.source === 'openapi') return [fact('Uploaded file', 'an OpenAPI document (upload it again to update)')];
    return [
      fact('Repository', l.repoUrl ? link(l.repoUrl) : `${l.id.slice(1)} (cloned from a copy on this server)`),
      fact('Branch', l.branch || 'the default branch'),
    ];
  };

  /** Why a build's benchmark score is what it is: the checks most snippets fail. */
  const qualityNotes = (b) => {
    const issues = (b?.qualityIssues ?? []).slice(0, 4);
    if (issues.length === 0) return null;
    return h('div.small.muted.quality-notes', issues.map((q) => `${q.issue}: ${formatNumber(q.snippets)}`).join(' · '));
  };

  const refreshButton = () => {
    if (lib.source === 'openapi') return null;
    return h(
      'button',
      {
        type: 'button',
        onclick: async (e) => {
          const button = e.currentTarget;
          await busy(
            button,
            async () => {
              const before = new Set((lib.jobs ?? []).map((j) => j.id));
              // The refresh call answers when the build ends; follow the job meanwhile.
              let followed = false;
              const done = post('/refresh', { libraryName: lib.id }).then(
                () => {
                  if (!followed) flash('ok', `${lib.id} is up to date.`);
                },
                (error) => {
                  if (!followed && !(error instanceof ApiError && error.status === 504)) showError(errors, error);
                },
              );
              const job = await findNewJob(lib.id, before, done, signal);
              if (job) {
                followed = true;
                navigate(jobHref(job.id).slice(1));
              } else {
                await done;
                await load();
              }
            },
            { label: 'Refreshing…' },
          );
        },
      },
      'Refresh',
    );
  };

  // Admins delete or merge into any library; a team's owners their private ones (the API decides; members are not offered it).
  const canManage = () => isAdmin() || (lib.private && (session.me?.teams ?? []).some((t) => t.id === lib.teamId && t.myRole === 'owner'));
  const deleteButton = () => {
    if (!canManage()) return null;
    return h(
      'button.danger',
      {
        type: 'button',
        onclick: async (e) => {
          const button = e.currentTarget;
          const ok = await confirmDialog({
            title: `Delete ${lib.id}?`,
            message: 'All its versions and snippets are removed; clients can no longer query it. This cannot be undone (you can add it again later).',
            confirmLabel: 'Delete library',
            danger: true,
          });
          if (!ok) return;
          await busy(
            button,
            async () => {
              await del(path, { query: copy });
              flash('ok', `${lib.id} was deleted.`, { next: true });
              navigate('/libraries');
            },
            { errorSlot: errors },
          );
        },
      },
      'Delete',
    );
  };

  try {
    if (await load()) every(2000, load, signal);
  } catch (error) {
    if (error.name === 'AbortError') return;
    if (error.code === 'access_denied') {
      root.querySelector('h1').textContent = id;
      mount(
        body,
        h(
          'div.alert.warn',
          { role: 'alert', 'data-code': 'access_denied' },
          h('strong', 'Hidden by your team’s policy. '),
          `Your team’s library policy does not allow ${id}, so you cannot browse or query it. A team owner can allow it on the `,
          h('a', { href: '#/policies' }, 'Policies'),
          ' page.',
        ),
      );
    } else showError(body, error);
  }
}

/** "every 24 h (source default)", "never", …: what the scheduler will do. */
function scheduleText(schedule) {
  if (!schedule || schedule.everyHours === null) return schedule?.mode === 'never' ? 'never' : 'never (source default)';
  return `every ${schedule.everyHours} h${schedule.mode === 'default' ? ' (source default)' : ''}`;
}
