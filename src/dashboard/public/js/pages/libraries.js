// The catalogue: the libraries the caller may use (its team's policy applied; admins can show
// the hidden ones too), filtered by words and state, sorted by any column, with their state
// and quality numbers. Versions built from the same commit are shown as one.
import { h, mount, field, formatDate, formatNumber, stateBadge } from '../dom.js';
import { get } from '../api.js';
import { page, showError, every } from '../ui.js';
import { isAdmin } from '../session.js';
import { sortableTable } from '../sortable.js';

/** A library's page; `teamId` names a team's private copy (an id can have one per team and a public one). */
export const libraryHref = (id, teamId) =>
  `#/library${String(id).split('/').map(encodeURIComponent).join('/')}${teamId ? `?team=${encodeURIComponent(teamId)}` : ''}`;

/**
 * The versions a library serves, builds of one commit merged: "latest = v2.0.0" when the
 * default branch is at a tag that is also built (or tagged), then the other tags.
 */
export function versionGroups(lib) {
  const builds = lib.builds ?? [];
  const groups = [];
  const seen = new Set();
  for (const b of builds) {
    if (seen.has(b.version)) continue;
    const same = builds.filter((o) => o !== b && o.commit && o.commit === b.commit && o.version !== 'latest' && b.version === 'latest');
    for (const o of same) seen.add(o.version);
    const names = [...new Set([...same.map((o) => o.version), ...(b.tags ?? [])].filter((n) => n !== b.version))];
    groups.push({ version: b.version, aliases: names, build: b });
  }
  for (const name of lib.versions ?? [])
    if (!seen.has(name) && !groups.some((g) => g.version === name || g.aliases.includes(name))) groups.push({ version: name, aliases: [], build: null });
  return groups;
}

/** "latest = v2.0.0, v1.0.0": the version list as text. */
export function versionList(lib) {
  return (
    versionGroups(lib)
      .map((g) => (g.aliases.length ? `${g.version} = ${g.aliases.join(' = ')}` : g.version))
      .join(', ') || '—'
  );
}

function matches(lib, q) {
  if (!q) return true;
  const hay = `${lib.id} ${lib.title} ${lib.description} ${(lib.aliases ?? []).join(' ')}`.toLowerCase();
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

const STATES = [
  ['', 'Any state'],
  ['finalized', 'Ready'],
  ['processing', 'Building'],
  ['queued', 'Queued'],
  ['failed', 'Failed'],
];

export async function renderLibraries({ root, query, signal }) {
  const search = h('input', {
    type: 'search',
    id: 'lib-filter',
    name: 'q',
    placeholder: 'Name, id or description',
    value: query.get('q') ?? '',
    'aria-controls': 'lib-list',
  });
  const state = h(
    'select',
    { id: 'lib-state', name: 'state' },
    STATES.map(([v, l]) => h('option', { value: v }, l)),
  );
  state.value = query.get('state') ?? '';
  const showHidden = h('input', { type: 'checkbox', id: 'lib-show-hidden', name: 'showHidden' });
  const hiddenToggle = h('label.check', { for: 'lib-show-hidden', hidden: true }, showHidden, h('span', 'Also show the libraries your team’s policy hides'));
  const count = h('p.small.muted', { role: 'status', id: 'lib-count' });
  const listSlot = h('div', { id: 'lib-list' }, h('p.muted', 'Loading libraries…'));
  let libraries = [];
  let hiddenByPolicy = 0;
  const sort = { key: query.get('sort') ?? 'title', dir: query.get('dir') === 'desc' ? 'desc' : 'asc' };

  const firstSteps = h('div');
  const columns = [
    {
      key: 'title',
      label: 'Library',
      value: (l) => (l.title || l.id).toLowerCase(),
      cell: (l) => [
        h('a', { href: libraryHref(l.id, l.private ? l.teamId : undefined) }, l.title || l.id),
        h('div.small.muted.mono', l.id),
        l.private ? h('span.badge.warn', 'private') : null,
        l.usable === false ? h('span.badge.bad', 'hidden by your team’s policy') : null,
      ],
    },
    { key: 'state', label: 'State', value: (l) => l.state, cell: (l) => stateBadge(l.state) },
    { key: 'versions', label: 'Versions', value: (l) => versionList(l), cell: (l) => versionList(l) },
    { key: 'snippets', label: 'Snippets', num: true, value: (l) => l.totalSnippets ?? 0, cell: (l) => formatNumber(l.totalSnippets) },
    { key: 'tokens', label: 'Tokens', num: true, value: (l) => l.totalTokens ?? 0, cell: (l) => formatNumber(l.totalTokens) },
    { key: 'updated', label: 'Last update', value: (l) => l.lastUpdateDate ?? '', cell: (l) => formatDate(l.lastUpdateDate) },
    { key: 'trust', label: 'Trust', num: true, value: (l) => l.trustScore ?? 0, cell: (l) => formatNumber(l.trustScore) },
    { key: 'benchmark', label: 'Benchmark', num: true, value: (l) => l.benchmarkScore ?? 0, cell: (l) => formatNumber(l.benchmarkScore) },
  ];

  const syncUrl = () => {
    const q = new URLSearchParams();
    if (search.value) q.set('q', search.value);
    if (state.value) q.set('state', state.value);
    if (sort.key !== 'title' || sort.dir !== 'asc') {
      q.set('sort', sort.key);
      q.set('dir', sort.dir);
    }
    history.replaceState(null, '', `#/libraries${q.size ? `?${q}` : ''}`);
  };
  const draw = () => {
    const usable = libraries.filter((l) => l.usable !== false || showHidden.checked);
    const wanted = (l) => matches(l, search.value.trim()) && (!state.value || l.state === state.value);
    const shown = usable.filter(wanted);
    const hiddenMatching = libraries.filter((l) => l.usable === false && !showHidden.checked && wanted(l)).length;
    count.textContent = `${shown.length} of ${usable.length} libraries${hiddenByPolicy && !showHidden.checked ? ` · ${hiddenByPolicy} hidden by your team’s policy` : ''}`;
    drawFirstSteps(firstSteps, libraries);
    const empty = hiddenMatching
      ? `No library you may use matches; ${hiddenMatching} that ${hiddenMatching === 1 ? 'matches is' : 'match are'} hidden by your team’s policy.`
      : libraries.length
        ? 'No library matches these filters.'
        : 'No libraries yet. Add a Git repository or upload an OpenAPI file.';
    // Redrawn while libraries build: a focused link gets focus back in the new list.
    const focused = listSlot.contains(document.activeElement) ? (document.activeElement.getAttribute('href') ?? document.activeElement.dataset.sortKey) : null;
    mount(
      listSlot,
      sortableTable(columns, shown, sort, {
        empty,
        caption: 'Libraries',
        onSort: () => {
          syncUrl();
          draw();
        },
      }),
    );
    if (focused)
      [...listSlot.querySelectorAll('a, button')]
        .find((el) => el.getAttribute('href') === focused || el.dataset.sortKey === focused)
        ?.focus({ preventScroll: true });
  };
  for (const control of [search, state, showHidden])
    control.addEventListener(control === search ? 'input' : 'change', () => {
      syncUrl();
      draw();
    });

  const load = async () => {
    const body = await get('/libraries', undefined, { signal });
    libraries = body.libraries ?? [];
    hiddenByPolicy = body.hiddenByPolicy ?? 0;
    // Admins manage every library; members only see the ones they may use.
    hiddenToggle.hidden = !(hiddenByPolicy && isAdmin());
    draw();
    return libraries.some((l) => l.state === 'queued' || l.state === 'processing');
  };

  mount(
    root,
    ...page(
      'Libraries',
      h(
        'div.toolbar',
        h('div.grow', field('Filter', search)),
        field('State', state),
        h('a.button', { href: '#/add' }, 'Add a library'),
        h('a.button.secondary', { href: '#/connect' }, 'Connect an assistant'),
      ),
      hiddenToggle,
      count,
      firstSteps,
      listSlot,
    ),
  );
  try {
    // Libraries being built change state by themselves: keep the list fresh meanwhile.
    if (await load()) every(3000, load, signal);
  } catch (error) {
    if (error.name !== 'AbortError') showError(listSlot, error);
  }
}

export const DEMO_LIBRARY_ID = '/shelfmark/shelfmark';

/** With no library of the user's own yet: how to add the first one, what the demo is, and how to connect an assistant. */
function drawFirstSteps(slot, libraries) {
  const own = libraries.filter((l) => l.id !== DEMO_LIBRARY_ID);
  if (own.length > 0) return mount(slot);
  const demo = libraries.some((l) => l.id === DEMO_LIBRARY_ID);
  mount(
    slot,
    h(
      'section.panel',
      { 'aria-labelledby': 'first-steps' },
      h('h2', { id: 'first-steps' }, 'Add your first library'),
      demo
        ? h(
            'p',
            'Shelfmark’s own documentation is here as a demo library: ',
            h(
              'a',
              { href: `#/playground?library=${encodeURIComponent(DEMO_LIBRARY_ID)}&q=${encodeURIComponent('How do I add a library?')}` },
              'ask it a question in the playground',
            ),
            '. SHELFMARK_DEMO_LIBRARY=off leaves it out on a fresh start.',
          )
        : null,
      h(
        'ol',
        h('li', h('a', { href: '#/add' }, 'Add a Git repository'), ': paste its URL (GitHub, GitLab, Bitbucket, or a server your operator allowed).'),
        h('li', h('a', { href: '#/add?kind=openapi' }, 'Upload an OpenAPI file'), ' (JSON or YAML) to make an API reference searchable.'),
        h('li', 'Load many at once from a folder: ', h('code', 'npm run load -- fixtures'), ' loads the small examples shipped in fixtures/.'),
        h(
          'li',
          h('a', { href: '#/connect' }, 'Connect a coding assistant'),
          ' (Claude Code, Cursor, VS Code and others) over MCP, with a key and a live test.',
        ),
      ),
    ),
  );
}
