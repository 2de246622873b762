// Usage: requests and tokens per day per channel, top libraries, and one library's metrics
// (its top queries), drawn as inline SVG charts.
import { h, mount, field, formatNumber } from '../dom.js';
import { get } from '../api.js';
import { page, showError, table } from '../ui.js';
import { barChart, lineChart, rankChart } from '../charts.js';
import { USAGE } from '../endpoints.js';
import { libraryHref } from './libraries.js';

const CHANNELS = [
  ['api', 'API (json)'],
  ['txt', 'API (txt)'],
  ['mcp', 'MCP'],
];

const channelColumns = [
  { label: 'API (json)', num: true, cell: (r) => formatNumber(r.api) },
  { label: 'API (txt)', num: true, cell: (r) => formatNumber(r.txt) },
  { label: 'MCP', num: true, cell: (r) => formatNumber(r.mcp) },
  { label: 'Tokens', num: true, cell: (r) => formatNumber(r.tokens) },
];

/**
 * Usage by API key and by team (with each channel), and the questions that found nothing,
 * each linked to its library and to the playground with the same question.
 */
function callerTables(summary) {
  const playground = (q) => `#/playground?${new URLSearchParams({ library: q.libraryId, q: q.query })}`;
  return [
    h('div.grid2',
      h('section.panel', h('h2', 'By API key'),
        table([{ label: 'Key', cell: (k) => [k.name ?? 'deleted key', ' ', h('code.small', k.prefix ? `${k.prefix}…` : k.keyId)] }, { label: 'Requests', num: true, cell: (k) => formatNumber(k.requests) }, ...channelColumns], summary.byKey, { empty: 'No requests made with an API key in this period.' })),
      h('section.panel', h('h2', 'By team'),
        table([{ label: 'Team', cell: (tm) => h('a', { href: `#/teams/${encodeURIComponent(tm.teamId)}` }, tm.name ?? tm.teamId) }, { label: 'Requests', num: true, cell: (tm) => formatNumber(tm.requests) }, ...channelColumns], summary.byTeam, { empty: 'No requests by team members in this period.' })),
    ),
    h('div.grid2',
      h('section.panel', { 'aria-labelledby': 'usage-zero' }, h('h2', { id: 'usage-zero' }, 'Questions that found nothing'),
        h('p.small.muted', 'Each one is a gap: the library lacks the page, or the question uses other words than its docs.'),
        table([
          { label: 'Question', cell: (q) => h('a', { href: playground(q) }, q.query) },
          { label: 'Library', cell: (q) => h('a', { href: libraryHref(q.libraryId) }, q.libraryId) },
          { label: 'Times', num: true, cell: (q) => formatNumber(q.count) },
        ], summary.zeroResultQueries, { empty: 'Every question found something in this period.' }),
      ),
      h('section.panel', { 'aria-labelledby': 'usage-low' }, h('h2', { id: 'usage-low' }, 'Questions answered weakly'),
        h('p.small.muted', 'Answered, but their best match scored under half of what a typical question to the same library scores: the docs may only touch on them.'),
        table([
          { label: 'Question', cell: (q) => h('a', { href: playground(q) }, q.query) },
          { label: 'Library', cell: (q) => h('a', { href: libraryHref(q.libraryId) }, q.libraryId) },
          { label: 'Score vs. typical', num: true, cell: (q) => `${Math.round(q.relativeScore * 100)}%` },
          { label: 'Times', num: true, cell: (q) => formatNumber(q.count) },
        ], summary.lowScoreQueries, { empty: 'No weak answers in this period (a library needs a few different questions before one can stand out).' }),
      ),
    ),
  ];
}

const dayLabel = (date) => String(date).slice(5); // MM-DD

export async function renderUsage({ root, query, signal }) {
  const days = h('select', { name: 'days', id: 'usage-days' }, [7, 14, 30, 90].map((d) => h('option', { value: String(d) }, `Last ${d} days`)));
  days.value = query.get('days') ?? '30';
  const overall = h('div', h('p.muted', 'Loading…'));
  const perLibrary = h('div');
  const library = h('select', { name: 'libraryId', id: 'usage-library' }, h('option', { value: '' }, 'Choose a library'));

  mount(
    root,
    ...page(
      'Usage',
      h('div.toolbar', h('div', field('Period', days))),
      overall,
      h('h2', 'One library'),
      h('div.toolbar', h('div.grow', field('Library', library))),
      perLibrary,
    ),
  );

  const loadOverall = async () => {
    try {
      const summary = USAGE.readSummary(await get(USAGE.summary, { days: days.value }, { signal }));
      const labels = summary.perDay.map((d) => dayLabel(d.date));
      const requests = CHANNELS.map(([key, name]) => ({ name, values: summary.perDay.map((d) => d[key] ?? 0) }));
      const total = requests.reduce((n, se) => n + se.values.reduce((a, b) => a + b, 0), 0);
      const tokens = summary.perDay.reduce((n, d) => n + (d.tokens ?? 0), 0);
      mount(
        overall,
        h('p', `${formatNumber(total)} requests and ${formatNumber(tokens)} tokens served in the last ${summary.days} days.`),
        h('div.grid2',
          h('section.panel', h('h2', 'Requests per day, by channel'), barChart({ title: 'Requests per day by channel', labels, series: requests })),
          h('section.panel', h('h2', 'Tokens served per day'), lineChart({ title: 'Tokens served per day', labels, series: [{ name: 'tokens', values: summary.perDay.map((d) => d.tokens ?? 0) }] })),
        ),
        h('section.panel', h('h2', 'Top libraries'),
          summary.topLibraries.length
            ? [
                rankChart({ title: 'Top libraries by requests', items: summary.topLibraries.map((l) => ({ label: l.libraryId, value: l.requests })), valueLabel: 'requests' }),
                table(
                  [
                    { label: 'Library', cell: (l) => h('a', { href: libraryHref(l.libraryId) }, l.libraryId) },
                    { label: 'Requests', num: true, cell: (l) => formatNumber(l.requests) },
                    { label: 'Tokens', num: true, cell: (l) => formatNumber(l.tokens) },
                  ],
                  summary.topLibraries,
                ),
              ]
            : h('p.muted', 'No requests yet in this period.'),
        ),
        callerTables(summary),
      );
    } catch (error) {
      if (error.name !== 'AbortError') showError(overall, error);
    }
  };

  const loadLibrary = async () => {
    if (!library.value) {
      mount(perLibrary, h('p.muted', 'Choose a library to see its requests and top queries.'));
      return;
    }
    try {
      const m = await get(USAGE.metrics, { libraryId: library.value, days: days.value }, { signal });
      const labels = m.perDay.map((d) => dayLabel(d.date));
      mount(
        perLibrary,
        h('p', `${formatNumber(m.totals?.requests)} requests, ${formatNumber(m.totals?.tokens)} tokens.`),
        h('div.grid2',
          h('section.panel', h('h3', 'Requests per day'), barChart({ title: `Requests per day for ${m.libraryId}`, labels, series: CHANNELS.map(([key, name]) => ({ name, values: m.perDay.map((d) => d[key] ?? 0) })) })),
          h('section.panel', h('h3', 'Top queries'), table([{ label: 'Query', cell: (q) => q.query }, { label: 'Count', num: true, cell: (q) => formatNumber(q.count) }], m.topQueries ?? [], { empty: 'No queries yet.' })),
        ),
      );
    } catch (error) {
      if (error.name !== 'AbortError') showError(perLibrary, error);
    }
  };

  days.addEventListener('change', () => {
    history.replaceState(null, '', `#/usage?days=${days.value}`);
    loadOverall();
    loadLibrary();
  });
  library.addEventListener('change', loadLibrary);
  get('/libraries', undefined, { signal })
    .then(({ libraries = [] }) => library.append(...libraries.map((l) => h('option', { value: l.id }, l.id))))
    .catch(() => undefined);
  await Promise.all([loadOverall(), loadLibrary()]);
}
