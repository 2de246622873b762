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

  const firstSteps = h('div');
  const draw = () => {
    const shown = libraries.filter((l) => matches(l, search.value.trim()));
    count.textContent = `${shown.length} of ${libraries.length} libraries`;
    drawFirstSteps(firstSteps, libraries);
    // Redrawn while libraries build: a focused link gets focus back in the new list.
    const focused = listSlot.contains(document.activeElement) ? document.activeElement.getAttribute('href') : null;
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
    if (focused) [...listSlot.querySelectorAll('a')].find((a) => a.getAttribute('href') === focused)?.focus({ preventScroll: true });
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

/** With no library of the user's own yet: how to add the first one (and what the demo is). */
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
        ? h('p', 'Shelfmark’s own documentation is here as a demo library: ', h('a', { href: `#/playground?library=${encodeURIComponent(DEMO_LIBRARY_ID)}&q=${encodeURIComponent('How do I add a library?')}` }, 'ask it a question in the playground'), '. SHELFMARK_DEMO_LIBRARY=off leaves it out on a fresh start.')
        : null,
      h(
        'ol',
        h('li', h('a', { href: '#/add' }, 'Add a Git repository'), ': paste its URL (GitHub, GitLab, Bitbucket, or a server your operator allowed).'),
        h('li', h('a', { href: '#/add' }, 'Upload an OpenAPI file'), ' (JSON or YAML) to make an API reference searchable.'),
        h('li', 'Load many at once from a folder: ', h('code', 'npm run load -- fixtures'), ' loads the small examples shipped in fixtures/.'),
        h('li', 'Then connect a coding assistant with a key from ', h('a', { href: '#/keys' }, 'API keys'), '.'),
      ),
    ),
  );
}
