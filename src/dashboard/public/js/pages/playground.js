// The playground: resolve a library as a client would (/libs/search), pick a version, ask a
// question, and see the answer of /context: rendered (each snippet's Markdown with its code
// highlighted and copyable), as the exact text the MCP tool query-docs returns (type=txt,
// fetched when that tab is opened), and as JSON; optionally two versions side by side. The
// question lives in the URL, so an answer can be shared. Only the libraries the caller's team
// policy allows are offered. Its requests say they come from the playground, so usage
// counts them apart from the API (one per question, and one more only for the text view).
// Indexed docs are untrusted: Markdown is rendered by marked and sanitized by DOMPurify
// (js/markdown.js), and the CSP blocks inline scripts besides.
import { h, mount, field, formatNumber } from '../dom.js';
import { get, ApiError } from '../api.js';
import { busy, page, errorBox, table } from '../ui.js';
import { codeBlock, copyButton, renderMarkdown } from '../markdown.js';

export { renderMarkdown };

/** Marks the dashboard's own traffic (counted apart in usage, only for a signed-in session). */
const PLAYGROUND = { 'X-Shelfmark-Channel': 'playground' };

export async function renderPlayground({ root, query, signal }) {
  let libraries = [];
  let hidden = 0;
  try {
    const all = ((await get('/libraries', undefined, { signal })).libraries ?? []).filter((l) => (l.versions ?? []).length > 0 || l.state === 'finalized');
    libraries = all.filter((l) => l.usable !== false);
    hidden = all.length - libraries.length;
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
  const searchForm = h(
    'form.panel',
    { 'aria-labelledby': 'pg-search' },
    h('h2', { id: 'pg-search' }, 'Resolve a library'),
    h('div.row', field('Library name', name), field('Query', topic), h('div.field', searchBtn)),
    searchOut,
  );

  // 2. Context query.
  // No library is picked for the user: an arbitrary default answers a question nobody asked.
  const library = h(
    'select',
    { name: 'libraryId', required: true },
    h('option', { value: '' }, 'Choose a library…'),
    libraries.map((l) => h('option', { value: l.id }, `${l.title || l.id} (${l.id})`)),
  );
  const version = h('select', { name: 'version' });
  const compare = h('select', { name: 'compare' });
  const question = h('input', { type: 'text', name: 'question', required: true, placeholder: 'e.g. how do I add middleware?' });
  const tokens = h('input', { type: 'number', name: 'tokens', min: 100, max: 100000, step: 100, value: '5000' });
  const askBtn = h('button', { type: 'submit' }, 'Get context');
  const answer = h('div', { 'aria-live': 'polite' });
  const askForm = h(
    'form.panel',
    { 'aria-labelledby': 'pg-ask' },
    h('h2', { id: 'pg-ask' }, 'Ask for context'),
    libraries.length === 0
      ? h('p.muted', hidden ? 'Your team’s policy allows none of the libraries that are ready.' : 'No library is ready yet. Add one first.')
      : null,
    hidden
      ? h(
          'p.small.muted',
          { 'data-hidden-by-policy': String(hidden) },
          `${hidden} ${hidden === 1 ? 'library is' : 'libraries are'} hidden by your team’s policy and not offered here.`,
        )
      : null,
    h('div.row', field('Library', library), field('Version', version), field('Compare with version', compare), field('Token budget', tokens)),
    field('Question', question),
    h('div.actions', askBtn),
  );

  const fillVersions = () => {
    const lib = libraries.find((l) => l.id === library.value);
    const names = lib ? [...new Set(['latest', ...(lib.versions ?? [])])] : [];
    mount(
      version,
      names.map((v) => h('option', { value: v }, v)),
    );
    mount(
      compare,
      h('option', { value: '' }, 'None (one answer)'),
      names.map((v) => h('option', { value: v }, v)),
    );
  };
  library.addEventListener('change', fillVersions);
  const wanted = query.get('library');
  if (wanted && libraries.some((l) => l.id === wanted)) library.value = wanted;
  fillVersions();
  if (query.get('version')) version.value = query.get('version');
  if (query.get('compare')) compare.value = query.get('compare');
  if (query.get('q')) question.value = query.get('q');
  if (query.get('tokens')) tokens.value = query.get('tokens');

  searchForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    await busy(
      searchBtn,
      async () => {
        try {
          const body = await get('/libs/search', { libraryName: name.value.trim(), query: topic.value.trim() }, { signal, headers: PLAYGROUND });
          mount(
            searchOut,
            h('p.small.muted', body.searchFilterApplied ? 'Your team’s library policy filtered these results.' : 'No team policy filtered these results.'),
            table(
              [
                { label: 'id', cell: (r) => h('code', r.id) },
                { label: 'title', cell: (r) => r.title },
                { label: 'versions', cell: (r) => (r.versions ?? []).join(', ') },
                { label: 'snippets', num: true, cell: (r) => formatNumber(r.totalSnippets) },
                { label: 'trust', num: true, cell: (r) => formatNumber(r.trustScore) },
                { label: 'benchmark', num: true, cell: (r) => formatNumber(r.benchmarkScore) },
                {
                  label: '',
                  cell: (r) =>
                    libraries.some((l) => l.id === r.id)
                      ? h(
                          'button.secondary',
                          {
                            type: 'button',
                            onclick: () => {
                              library.value = r.id;
                              fillVersions();
                              question.focus();
                            },
                          },
                          'Use',
                        )
                      : null,
                },
              ],
              body.results ?? [],
            ),
          );
        } catch (error) {
          if (error.name !== 'AbortError') mount(searchOut, errorBox(error));
        }
      },
      { label: 'Searching…' },
    );
  });

  const ask = async () => {
    const idFor = (v) => (v && v !== 'latest' ? `${library.value}/${v}` : library.value);
    const one = async (v) => {
      const params = { libraryId: idFor(v), query: question.value.trim(), tokens: tokens.value };
      try {
        return showAnswer(params, await get('/context', { ...params, type: 'json' }, { signal, headers: PLAYGROUND }), v || 'latest', signal);
      } catch (error) {
        if (error?.name === 'AbortError') throw error;
        return error instanceof ApiError ? errorBox(error) : errorBox(new Error(String(error)));
      }
    };
    // The question is in the URL (replaceState: sharing it, or reloading, asks it again).
    const q = new URLSearchParams({ library: library.value, q: question.value.trim() });
    if (version.value && version.value !== 'latest') q.set('version', version.value);
    if (compare.value) q.set('compare', compare.value);
    if (tokens.value && tokens.value !== '5000') q.set('tokens', tokens.value);
    history.replaceState(null, '', `#/playground?${q}`);
    await busy(
      askBtn,
      async () => {
        const answers = await Promise.all(compare.value ? [one(version.value), one(compare.value)] : [one(version.value)]);
        mount(answer, answers.length > 1 ? h('div.compare', answers) : answers[0]);
      },
      { label: 'Asking…' },
    );
  };
  askForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    await ask();
  });

  mount(root, ...page('Playground', h('p.muted', 'What a coding assistant gets: the same calls, the same formats.'), searchForm, askForm, answer));
  if (library.value && question.value.trim()) await ask();
}

let answerCount = 0;
function showAnswer(params, data, label, signal) {
  const libraryId = params.libraryId;
  const snippets = data.snippets ?? [];
  const totalTokens = snippets.reduce((sum, s) => sum + (s.tokens ?? 0), 0);
  const n = ++answerCount;
  const txt = h('pre', { tabindex: '0', 'aria-label': 'The text query-docs returns' }, 'Loading the text…');
  let txtLoaded = false;
  const views = {
    rendered: h(
      'div',
      { id: `pg-view-rendered-${n}`, role: 'tabpanel', 'aria-label': 'Rendered' },
      snippets.length ? snippets.map(snippetCard) : h('p.muted', 'No snippets.'),
    ),
    txt: h('div', { id: `pg-view-txt-${n}`, role: 'tabpanel', 'aria-label': 'MCP tool text' }, h('div.code-block', txt)),
    json: h(
      'div',
      { id: `pg-view-json-${n}`, role: 'tabpanel', 'aria-label': 'JSON format' },
      codeBlock(JSON.stringify(data, null, 2), 'json', { label: 'JSON answer' }),
    ),
  };
  const tabs = Object.entries({ rendered: 'Rendered', txt: 'MCP tool text (query-docs)', json: 'JSON (type=json)' }).map(([key, text]) =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `pg-tab-${key}-${n}`,
        'data-view': key,
        'aria-controls': `pg-view-${key}-${n}`,
        'aria-selected': String(key === 'rendered'),
        onclick: () => select(key),
      },
      text,
    ),
  );
  const select = (key) => {
    for (const t of tabs) t.setAttribute('aria-selected', String(t.dataset.view === key));
    for (const [k, v] of Object.entries(views)) v.hidden = k !== key;
    // The exact text an assistant reads is a second call: made only when asked for.
    if (key === 'txt' && !txtLoaded) {
      txtLoaded = true;
      get('/context', { ...params, type: 'txt' }, { signal, text: true, headers: PLAYGROUND }).then(
        (text) => {
          txt.textContent = text;
          txt.before(
            h(
              'div.code-bar',
              h('span.small', 'text'),
              copyButton(() => text, 'Copy the MCP tool text'),
            ),
          );
        },
        (error) => {
          if (error?.name !== 'AbortError') txt.replaceWith(errorBox(error));
        },
      );
    }
  };
  select('rendered');
  return h(
    'section.panel.answer',
    { 'aria-label': `Answer for ${libraryId}` },
    h('h2', `Answer for ${libraryId}`),
    h(
      'p.small.muted',
      { 'data-tokens': String(totalTokens) },
      `Version ${label} · ${snippets.length} snippets (${data.codeSnippets?.length ?? 0} code, ${data.infoSnippets?.length ?? 0} info) · ${formatNumber(totalTokens)} tokens`,
    ),
    h('div.tabs', { role: 'tablist', 'aria-label': 'Format' }, tabs),
    Object.values(views),
  );
}

/** A snippet as an assistant gets it, readable: title, source, its prose as Markdown, its code highlighted. */
export function snippetCard(s) {
  const src = s.source ?? {};
  const where = `${src.path ?? s.path ?? ''}${(src.startLine ?? s.startLine) ? `:${src.startLine ?? s.startLine}` : ''}`;
  const url = src.url ?? s.url ?? '';
  // A section snippet's content is its Markdown with the examples in place (description and
  // code repeat parts of it); older and generated snippets keep prose and code apart.
  const inPlace = /^(```|~~~)/m.test(s.content ?? '');
  const text = inPlace ? s.content : [s.description, s.content].filter(Boolean).join('\n\n');
  const whole = [s.title, text, s.code && !inPlace ? `\`\`\`${s.language ?? ''}\n${s.code}\n\`\`\`` : ''].filter(Boolean).join('\n\n');
  return h(
    'article.snippet',
    h(
      'div.snippet-head',
      h('h3', s.title || (s.breadcrumb ?? []).join(' › ') || '(untitled)'),
      copyButton(() => whole, `Copy the snippet “${s.title || 'untitled'}”`),
    ),
    h(
      'p.small.muted',
      [s.kind, s.pageKind, `${formatNumber(s.tokens)} tokens`, s.score !== undefined ? `score ${s.score}` : null].filter(Boolean).join(' · '),
      ' · ',
      /^https?:\/\//.test(url) ? h('a', { href: url, rel: 'noopener noreferrer', target: '_blank' }, where || url) : h('span.mono', url || where),
    ),
    text ? renderMarkdown(text) : null,
    s.code && !inPlace ? codeBlock(s.code, s.language) : null,
  );
}
