// The catalogue: a searchable list of libraries with their state and quality numbers.
import { h, mount, formatDate, formatNumber, stateBadge } from '../dom.js';
import { get } from '../api.js';
import { page, showError, table, every } from '../ui.js';

/** The hash route of a library's page. */
/** A library's page; `teamId` names a team's private copy (an id can have one per team and a public one). */
export const libraryHref = (id, teamId) => `#/library${String(id).split('/').map(encodeURIComponent).join('/')}${teamId ? `?team=${encodeURIComponent(teamId)}` : ''}`;

/** "latest" (the default branch) when built, then the tags. */
export function versionList(lib) {
  const names = (lib.builds ?? []).some((b) => b.version === 'latest') ? ['latest'] : [];
  return [...new Set([...names, ...(lib.versions ?? [])])].join(', ') || '—';
}

function matches(lib, q) {
  if (!q) return true;
  const hay = `${lib.id} ${lib.title} ${lib.description} ${(lib.aliases ?? []).join(' ')}`.toLowerCase();
  return q.toLowerCase().split(/\s+/).filter(Boolean).every((w) => hay.includes(w));
}

export async function renderLibraries({ root, query, signal }) {
  const search = h('input', { type: 'search', id: 'lib-filter', placeholder: 'Filter by name, id or description', value: query.get('q') ?? '', 'aria-controls': 'lib-list' });
  const count = h('span.muted.small', { role: 'status' });
  const listSlot = h('div', { id: 'lib-list' }, h('p.muted', 'Loading libraries…'));
  let libraries = [];

  const draw = () => {
    const shown = libraries.filter((l) => matches(l, search.value.trim()));
    count.textContent = `${shown.length} of ${libraries.length} libraries`;
    mount(
      listSlot,
      table(
        [
          { label: 'Library', cell: (l) => [h('a', { href: libraryHref(l.id, l.private ? l.teamId : undefined) }, l.title || l.id), h('div.small.muted.mono', l.id), l.private ? h('span.badge.warn', 'private') : null] },
          { label: 'State', cell: (l) => stateBadge(l.state) },
          { label: 'Versions', cell: (l) => versionList(l) },
          { label: 'Snippets', num: true, cell: (l) => formatNumber(l.totalSnippets) },
          { label: 'Tokens', num: true, cell: (l) => formatNumber(l.totalTokens) },
          { label: 'Last update', cell: (l) => formatDate(l.lastUpdateDate) },
          { label: 'Trust', num: true, cell: (l) => formatNumber(l.trustScore) },
          { label: 'Benchmark', num: true, cell: (l) => formatNumber(l.benchmarkScore) },
        ],
        shown,
        { empty: libraries.length ? 'No library matches the filter.' : 'No libraries yet. Add a Git repository or upload an OpenAPI file.' },
      ),
    );
  };
  search.addEventListener('input', () => {
    draw();
    history.replaceState(null, '', `#/libraries${search.value ? `?q=${encodeURIComponent(search.value)}` : ''}`);
  });

  const load = async () => {
    const body = await get('/libraries', undefined, { signal });
    libraries = body.libraries ?? [];
    draw();
    return libraries.some((l) => l.state === 'queued' || l.state === 'processing');
  };

  mount(
    root,
    ...page(
      'Libraries',
      h('div.toolbar', h('label', { for: 'lib-filter', class: 'grow' }, h('span', { class: 'muted small' }, 'Filter'), search), count, h('a.button', { href: '#/add' }, 'Add a library')),
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
