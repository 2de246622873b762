// The playground: resolve a library as a client would (/libs/search), pick a version, ask a
// question, and see the answer of /context in both formats (txt and json) with sources.
import { h, mount, field, formatNumber } from '../dom.js';
import { get, ApiError } from '../api.js';
import { busy, page, errorBox, table } from '../ui.js';

export async function renderPlayground({ root, query, signal }) {
  let libraries = [];
  try {
    libraries = ((await get('/libraries', undefined, { signal })).libraries ?? []).filter((l) => (l.versions ?? []).length > 0 || l.state === 'finalized');
  } catch (error) {
    if (error.name === 'AbortError') return;
    mount(root, ...page('Playground', errorBox(error)));
    return;
  }

  // 1. Catalogue search, exactly as clients resolve a name.
  const name = h('input', { type: 'search', name: 'libraryName', required: true, placeholder: 'e.g. next.js' });
  const topic = h('input', { type: 'text', name: 'query', placeholder: 'optional: what you want to do' });
  const searchOut = h('div', { 'aria-live': 'polite' });
  const searchBtn = h('button', { type: 'submit' }, 'Search');
  const searchForm = h('form.panel', { 'aria-labelledby': 'pg-search' }, h('h2', { id: 'pg-search' }, 'Resolve a library'), h('div.row', field('Library name', name), field('Query', topic), h('div.field', searchBtn)), searchOut);

  // 2. Context query.
  const library = h('select', { name: 'libraryId', required: true }, libraries.map((l) => h('option', { value: l.id }, `${l.title || l.id} (${l.id})`)));
  const version = h('select', { name: 'version' });
  const question = h('input', { type: 'text', name: 'question', required: true, placeholder: 'e.g. how do I add middleware?' });
  const tokens = h('input', { type: 'number', name: 'tokens', min: 100, max: 100000, step: 100, value: '5000' });
  const askBtn = h('button', { type: 'submit' }, 'Get context');
  const answer = h('div', { 'aria-live': 'polite' });
  const askForm = h(
    'form.panel',
    { 'aria-labelledby': 'pg-ask' },
    h('h2', { id: 'pg-ask' }, 'Ask for context'),
    libraries.length === 0 ? h('p.muted', 'No library is ready yet. Add one first.') : null,
    h('div.row', field('Library', library), field('Version', version), field('Token budget', tokens)),
    field('Question', question),
    h('div.actions', askBtn),
  );

  const fillVersions = () => {
    const lib = libraries.find((l) => l.id === library.value);
    const names = [...new Set(['latest', ...(lib?.versions ?? [])])];
    mount(version, names.map((v) => h('option', { value: v }, v)));
  };
  library.addEventListener('change', fillVersions);
  const wanted = query.get('library');
  if (wanted && libraries.some((l) => l.id === wanted)) library.value = wanted;
  fillVersions();

  searchForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    await busy(searchBtn, async () => {
      try {
        const body = await get('/libs/search', { libraryName: name.value.trim(), query: topic.value.trim() }, { signal });
        mount(
          searchOut,
          h('p.small.muted', `searchFilterApplied: ${String(body.searchFilterApplied)}`),
          table(
            [
              { label: 'id', cell: (r) => h('code', r.id) },
              { label: 'title', cell: (r) => r.title },
              { label: 'versions', cell: (r) => (r.versions ?? []).join(', ') },
              { label: 'snippets', num: true, cell: (r) => formatNumber(r.totalSnippets) },
              { label: 'trust', num: true, cell: (r) => formatNumber(r.trustScore) },
              { label: 'benchmark', num: true, cell: (r) => formatNumber(r.benchmarkScore) },
              { label: '', cell: (r) => (libraries.some((l) => l.id === r.id) ? h('button.secondary', { type: 'button', onclick: () => { library.value = r.id; fillVersions(); question.focus(); } }, 'Use') : null) },
            ],
            body.results ?? [],
          ),
        );
      } catch (error) {
        if (error.name !== 'AbortError') mount(searchOut, errorBox(error));
      }
    }, { label: 'Searching…' });
  });

  askForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const libraryId = version.value && version.value !== 'latest' ? `${library.value}/${version.value}` : library.value;
    const params = { libraryId, query: question.value.trim(), tokens: tokens.value };
    await busy(askBtn, async () => {
      const [txt, json] = await Promise.allSettled([
        get('/context', { ...params, type: 'txt' }, { signal, text: true }),
        get('/context', { ...params, type: 'json' }, { signal }),
      ]);
      mount(answer, showAnswer(libraryId, txt, json));
    }, { label: 'Asking…' });
  });

  mount(root, ...page('Playground', h('p.muted', 'What a coding assistant gets: the same calls, the same formats.'), searchForm, askForm, answer));
}

function showAnswer(libraryId, txt, json) {
  const failed = [txt, json].find((r) => r.status === 'rejected');
  if (failed) {
    const error = failed.reason;
    return error instanceof ApiError ? errorBox(error) : errorBox(new Error(String(error)));
  }
  const data = json.value;
  const snippets = data.snippets ?? [];
  const totalTokens = snippets.reduce((sum, s) => sum + (s.tokens ?? 0), 0);
  const views = {
    snippets: h('div', { id: 'pg-view-snippets' }, snippets.length ? snippets.map(snippetCard) : h('p.muted', 'No snippets.')),
    txt: h('pre', { id: 'pg-view-txt', 'aria-label': 'Text format' }, txt.value),
    json: h('pre', { id: 'pg-view-json', 'aria-label': 'JSON format' }, JSON.stringify(data, null, 2)),
  };
  const tabs = Object.entries({ snippets: 'Snippets', txt: 'Text (type=txt)', json: 'JSON (type=json)' }).map(([key, label]) =>
    h('button', { type: 'button', role: 'tab', id: `pg-tab-${key}`, 'aria-controls': `pg-view-${key}`, 'aria-selected': String(key === 'snippets'), onclick: () => select(key) }, label),
  );
  const select = (key) => {
    for (const t of tabs) t.setAttribute('aria-selected', String(t.id === `pg-tab-${key}`));
    for (const [k, v] of Object.entries(views)) v.hidden = k !== key;
  };
  select('snippets');
  return h(
    'section.panel',
    { 'aria-label': 'Answer' },
    h('h2', `Answer for ${libraryId}`),
    h('p.small.muted', `${snippets.length} snippets (${data.codeSnippets?.length ?? 0} code, ${data.infoSnippets?.length ?? 0} info) · ${formatNumber(totalTokens)} tokens`),
    h('div.tabs', { role: 'tablist', 'aria-label': 'Format' }, tabs),
    Object.values(views),
  );
}

function snippetCard(s) {
  const src = s.source ?? {};
  const where = `${src.path ?? ''}${src.startLine ? `:${src.startLine}` : ''}`;
  return h(
    'article.snippet',
    h('h3', s.title || (s.breadcrumb ?? []).join(' › ') || '(untitled)'),
    h('p.small.muted', `${s.kind} · ${formatNumber(s.tokens)} tokens · score ${s.score} · `, /^https?:\/\//.test(src.url ?? '') ? h('a', { href: src.url, rel: 'noopener noreferrer', target: '_blank' }, where || src.url) : h('span.mono', src.url || where)),
    s.description ? h('p', s.description) : null,
    s.kind === 'code' ? h('pre', { 'data-language': s.language || undefined }, s.code) : h('p', s.content),
  );
}
