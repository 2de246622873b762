// A library's sources (GET/POST /libraries/:id/sources): its own and the libraries merged into
// it — each built and refreshed on its own, answered together as one version set, a page two
// sources hold served once. Admins (and a private library's team owners) merge another library
// in by its id; a source's page says which library it was merged into.
import { h, mount, field, formatDate, formatNumber, stateBadge } from '../dom.js';
import { get, post } from '../api.js';
import { busy, flash, table } from '../ui.js';

/** The Sources section of a library's overview; `canManage` offers the merge form. */
export function sourcesSection({ path, copy, lib, canManage, signal }) {
  const list = h('div', h('p.muted', 'Loading…'));
  const errors = h('div');
  const load = async () => {
    const view = await get(`${path}/sources`, copy, { signal });
    mount(list, sourcesTable(view));
  };
  load().catch((error) => {
    if (error.name !== 'AbortError') mount(list, h('p.muted', `Sources could not be read: ${error.message}`));
  });

  const source = h('input', { type: 'text', name: 'source', required: true, spellcheck: 'false', placeholder: '/websites/docs-example-com' });
  const joins = h(
    'select',
    { name: 'joins' },
    [...new Set(['latest', ...(lib.builds ?? []).map((b) => b.version)])].map((v) => h('option', { value: v }, v)),
  );
  const save = h('button', { type: 'submit' }, 'Merge in');
  const form = h(
    'form.panel',
    { 'aria-labelledby': 'merge-source' },
    h('h3', { id: 'merge-source' }, 'Merge another library in'),
    h(
      'p.small.muted',
      'Add the website or llms.txt first (Add library), then merge it here by its id. Its old id then answers with this library, and a page both hold is served once (the richer copy).',
    ),
    errors,
    field('Library id', source),
    field('Its default version joins', joins, 'A website or llms.txt has no tags: it documents this library’s latest version unless you pin another.'),
    h('div.actions', save),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(
      save,
      async () => {
        const view = await post(`${path}/sources`, { source: source.value.trim(), joins: joins.value }, { query: copy });
        mount(list, sourcesTable(view));
        flash('ok', `${source.value.trim()} is now a source of ${lib.id}.`);
        source.value = '';
      },
      { label: 'Merging…', errorSlot: errors },
    );
  });

  return [
    h('h2', 'Sources'),
    lib.mergedInto
      ? h(
          'div.alert',
          { role: 'note' },
          `This library is a source of `,
          h('a', { href: `#/library${lib.mergedInto}` }, lib.mergedInto),
          ': context and search on its id answer with that library.',
        )
      : null,
    list,
    canManage && !lib.mergedInto ? form : null,
  ];
}

function sourcesTable(view) {
  return table(
    [
      { label: 'Source', cell: (s) => (s.role === 'own' ? h('code', s.libraryId) : h('a', { href: `#/library${s.libraryId}` }, h('code', s.libraryId))) },
      { label: 'Kind', cell: (s) => s.source },
      { label: 'Role', cell: (s) => (s.role === 'own' ? 'this library' : `merged (joins ${s.joins})`) },
      { label: 'State', cell: (s) => stateBadge(s.state) },
      { label: 'Snippets', num: true, cell: (s) => formatNumber(s.versions.reduce((n, v) => n + v.totalSnippets, 0)) },
      {
        label: 'Updated',
        cell: (s) =>
          formatDate(
            s.versions
              .map((v) => v.lastUpdateDate)
              .filter(Boolean)
              .sort()
              .at(-1),
          ),
      },
    ],
    view.sources,
    { empty: 'No source.' },
  );
}
