// A library's snippet browser (GET /libraries/:id/snippets): words, version, kind and page
// kind, a list of pages to narrow to (each with its count), pages of results, and each
// snippet readable (Markdown, highlighted code) and copyable as an assistant gets it.
import { h, mount, field, formatNumber } from '../dom.js';
import { get } from '../api.js';
import { errorBox } from '../ui.js';
import { snippetCard } from './playground.js';
import { versionGroups } from './libraries.js';

const PAGE_SIZE = 20;

export function snippetBrowser({ path, copy, lib, signal }) {
  const state = { q: '', version: 'latest', kind: '', page: '', pageKind: '', from: 0 };
  const q = h('input', {
    type: 'search',
    name: 'snippetQuery',
    id: 'snippet-q',
    placeholder: 'e.g. middleware error handling',
    'aria-controls': 'snippet-results',
  });
  const versions = versionGroups(lib);
  const version = h(
    'select',
    { name: 'snippetVersion', id: 'snippet-version' },
    (versions.length ? versions : [{ version: 'latest', aliases: [] }]).map((g) =>
      h('option', { value: g.version }, g.aliases.length ? `${g.version} (= ${g.aliases.join(', ')})` : g.version),
    ),
  );
  const kind = h(
    'select',
    { name: 'snippetKind', id: 'snippet-kind' },
    h('option', { value: '' }, 'Code and prose'),
    h('option', { value: 'code' }, 'Code'),
    h('option', { value: 'info' }, 'Prose'),
  );
  const pageKind = h('select', { name: 'snippetPageKind', id: 'snippet-page-kind' }, h('option', { value: '' }, 'Every kind of page'));
  const pageKindField = field('Page kind', pageKind);
  pageKindField.hidden = true;
  const pages = h('ul.facet-list', { 'aria-label': 'Pages' });
  const status = h('p.small.muted', { role: 'status', id: 'snippet-status' });
  const results = h('div', { id: 'snippet-results' });
  const pager = h('div.pager');
  let timer;

  let seq = 0;
  const load = async () => {
    const mine = ++seq; // a slower, older answer never overwrites a newer one
    mount(status, 'Loading…');
    const query = {
      q: state.q,
      version: state.version,
      kind: state.kind || undefined,
      page: state.page || undefined,
      pageKind: state.pageKind || undefined,
      from: state.from,
      size: PAGE_SIZE,
      ...(copy ?? {}),
    };
    let body;
    try {
      body = await get(`${path}/snippets`, query, { signal });
    } catch (error) {
      if (error?.name === 'AbortError' || mine !== seq) return;
      mount(status);
      mount(results, errorBox(error));
      return;
    }
    if (mine !== seq) return;
    drawPages(body.facets.pages);
    const kinds = body.facets.pageKinds ?? [];
    pageKindField.hidden = kinds.length === 0; // shown once the index knows the kinds of pages
    if (kinds.length)
      mount(
        pageKind,
        h('option', { value: '' }, 'Every kind of page'),
        kinds.map((k) => h('option', { value: k.value, selected: k.value === state.pageKind }, `${k.value} (${formatNumber(k.count)})`)),
      );
    const last = Math.min(body.total, state.from + body.snippets.length);
    mount(
      status,
      body.total
        ? `${formatNumber(state.from + 1)}–${formatNumber(last)} of ${formatNumber(body.total)} snippets${state.page ? ` in ${state.page}` : ''}`
        : 'No snippet matches.',
    );
    mount(results, body.snippets.map(snippetCard));
    mount(
      pager,
      h(
        'button.secondary',
        {
          type: 'button',
          disabled: state.from === 0,
          onclick: () => {
            state.from = Math.max(0, state.from - PAGE_SIZE);
            void load();
          },
        },
        'Previous',
      ),
      h(
        'button.secondary',
        {
          type: 'button',
          disabled: last >= body.total,
          onclick: () => {
            state.from += PAGE_SIZE;
            void load();
          },
        },
        'Next',
      ),
    );
  };
  const drawPages = (facet) => {
    const items = [{ value: '', count: null }, ...facet];
    mount(
      pages,
      items.map((p) =>
        h(
          'li',
          h(
            'button',
            {
              type: 'button',
              'aria-pressed': String(state.page === p.value),
              onclick: () => {
                state.page = p.value;
                state.from = 0;
                void load();
              },
            },
            h('span', p.value || 'All pages'),
            p.count !== null ? h('span.small.muted', formatNumber(p.count)) : null,
          ),
        ),
      ),
    );
  };
  const refilter = () => {
    Object.assign(state, { q: q.value.trim(), version: version.value, kind: kind.value, pageKind: pageKind.value, from: 0 });
    void load();
  };
  q.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(refilter, 250);
  });
  for (const select of [version, kind, pageKind]) select.addEventListener('change', refilter);
  const form = h(
    'form.toolbar',
    {
      role: 'search',
      'aria-label': 'Snippet filters',
      onsubmit: (e) => {
        e.preventDefault();
        refilter();
      },
    },
    h('div.grow', field('Search the snippets', q)),
    field('Version', version),
    field('Kind', kind),
    pageKindField,
  );
  void load();
  return h('section', { 'aria-label': 'Snippet browser' }, form, h('div.browser', h('div.panel', h('h2', 'Pages'), pages), h('div', status, results, pager)));
}
