// Usage: requests and tokens per channel — the dashboard's own playground apart from API
// and MCP traffic — in hourly or daily buckets chosen for the range (a new install sees its
// first hours, not one bar at the edge of a month), top libraries, and one library's metrics
// (its top queries), drawn as inline SVG charts with values on hover.
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
  ['playground', 'Dashboard playground'],
];

/** Ranges: [value, label, days, bucket]; `auto` looks at when usage began. */
const RANGES = [
  ['auto', 'Since usage began (up to 30 days)', 30, 'auto'],
  ['24h', 'Last 24 hours', 1, 'hour'],
  ['48h', 'Last 48 hours', 2, 'hour'],
  ['7d', 'Last 7 days', 7, 'day'],
  ['30d', 'Last 30 days', 30, 'day'],
  ['90d', 'Last 90 days', 90, 'day'],
];

/** The buckets of a window as { labels, rows }: hours ("13:00", with the date at midnight) or days ("11-26"). */
function buckets(body, bucket) {
  if (bucket === 'hour') {
    const rows = body.perHour ?? [];
    return { labels: rows.map((r) => (r.hour.slice(11, 13) === '00' ? r.hour.slice(5, 10) : `${r.hour.slice(11, 13)}:00`)), rows, unit: 'hour' };
  }
  return { labels: (body.perDay ?? []).map((d) => dayLabel(d.date)), rows: body.perDay ?? [], unit: 'day' };
}

/**
 * The window to draw for a range: fixed ranges as they say; `auto` starts at the first day
 * with requests (at most 30 days back) and uses hours while that is within the last two days.
 */
async function windowFor(range, fetchWindow) {
  const [, , days, bucket] = RANGES.find(([v]) => v === range) ?? RANGES[0];
  if (bucket !== 'auto') return { body: await fetchWindow(days, bucket), bucket, days };
  const month = await fetchWindow(30, 'day');
  const first = (month.perDay ?? []).findIndex((d) => CHANNELS.some(([k]) => (d[k] ?? 0) > 0));
  const since = first === -1 ? 0 : 30 - first;
  if (since <= 2) return { body: await fetchWindow(2, 'hour'), bucket: 'hour', days: 2 };
  const daysShown = Math.min(30, Math.max(7, since));
  return { body: daysShown === 30 ? month : await fetchWindow(daysShown, 'day'), bucket: 'day', days: daysShown };
}

const channelColumns = [
  { label: 'API (json)', num: true, cell: (r) => formatNumber(r.api) },
  { label: 'API (txt)', num: true, cell: (r) => formatNumber(r.txt) },
  { label: 'MCP', num: true, cell: (r) => formatNumber(r.mcp) },
  { label: 'Playground', num: true, cell: (r) => formatNumber(r.playground ?? 0) },
  { label: 'Tokens', num: true, cell: (r) => formatNumber(r.tokens) },
];

/**
 * Usage by API key and by team (with each channel), and the questions that found nothing,
 * each linked to its library and to the playground with the same question.
 */
function callerTables(summary) {
  const playground = (q) => `#/playground?${new URLSearchParams({ library: q.libraryId, q: q.query })}`;
  return [
    h(
      'div.grid2',
      h(
        'section.panel',
        h('h2', 'By API key'),
        table(
          [
            { label: 'Key', cell: (k) => [k.name ?? 'deleted key', ' ', h('code.small', k.prefix ? `${k.prefix}…` : k.keyId)] },
            { label: 'Requests', num: true, cell: (k) => formatNumber(k.requests) },
            ...channelColumns,
          ],
          summary.byKey,
          { empty: 'No requests made with an API key in this period.' },
        ),
      ),
      h(
        'section.panel',
        h('h2', 'By team'),
        table(
          [
            { label: 'Team', cell: (tm) => h('a', { href: `#/teams/${encodeURIComponent(tm.teamId)}` }, tm.name ?? tm.teamId) },
            { label: 'Requests', num: true, cell: (tm) => formatNumber(tm.requests) },
            ...channelColumns,
          ],
          summary.byTeam,
          { empty: 'No requests by team members in this period.' },
        ),
      ),
    ),
    h(
      'div.grid2',
      h(
        'section.panel',
        { 'aria-labelledby': 'usage-zero' },
        h('h2', { id: 'usage-zero' }, 'Questions that found nothing'),
        h('p.small.muted', 'Each one is a gap: the library lacks the page, or the question uses other words than its docs.'),
        table(
          [
            { label: 'Question', cell: (q) => h('a', { href: playground(q) }, q.query) },
            { label: 'Library', cell: (q) => h('a', { href: libraryHref(q.libraryId) }, q.libraryId) },
            { label: 'Times', num: true, cell: (q) => formatNumber(q.count) },
          ],
          summary.zeroResultQueries,
          { empty: 'Every question found something in this period.' },
        ),
      ),
      h(
        'section.panel',
        { 'aria-labelledby': 'usage-low' },
        h('h2', { id: 'usage-low' }, 'Questions answered weakly'),
        h(
          'p.small.muted',
          'Answered, but their best match scored under half of what a typical question to the same library scores: the docs may only touch on them.',
        ),
        table(
          [
            { label: 'Question', cell: (q) => h('a', { href: playground(q) }, q.query) },
            { label: 'Library', cell: (q) => h('a', { href: libraryHref(q.libraryId) }, q.libraryId) },
            { label: 'Score vs. typical', num: true, cell: (q) => `${Math.round(q.relativeScore * 100)}%` },
            { label: 'Times', num: true, cell: (q) => formatNumber(q.count) },
          ],
          summary.lowScoreQueries,
          { empty: 'No weak answers in this period (a library needs a few different questions before one can stand out).' },
        ),
      ),
    ),
  ];
}

const dayLabel = (date) => String(date).slice(5); // MM-DD

export async function renderUsage({ root, query, signal }) {
  const range = h(
    'select',
    { name: 'range', id: 'usage-range' },
    RANGES.map(([v, l]) => h('option', { value: v }, l)),
  );
  range.value = RANGES.some(([v]) => v === query.get('range')) ? query.get('range') : 'auto';
  const overall = h('div', h('p.muted', 'Loading…'));
  const perLibrary = h('div');
  const library = h('select', { name: 'libraryId', id: 'usage-library' }, h('option', { value: '' }, 'Choose a library'));

  mount(
    root,
    ...page(
      'Usage',
      h('div.toolbar', h('div', field('Range', range))),
      overall,
      h('h2', 'One library'),
      h('div.toolbar', h('div.grow', field('Library', library))),
      perLibrary,
    ),
  );

  const loadOverall = async () => {
    try {
      const { body, bucket, days } = await windowFor(range.value, (d, b) => get(USAGE.summary, { days: d, bucket: b }, { signal }));
      const summary = USAGE.readSummary(body);
      const { labels, rows, unit } = buckets(body, bucket);
      const requests = CHANNELS.map(([key, name]) => ({ name, values: rows.map((d) => d[key] ?? 0) }));
      const total = requests.reduce((n, se) => n + se.values.reduce((a, b) => a + b, 0), 0);
      const playground = requests[3].values.reduce((a, b) => a + b, 0);
      const tokens = rows.reduce((n, d) => n + (d.tokens ?? 0), 0);
      const span = bucket === 'hour' ? `the last ${days * 24} hours` : `the last ${days} days`;
      mount(
        overall,
        h(
          'p',
          { 'data-range': `${days}${bucket}` },
          `${formatNumber(total)} requests and ${formatNumber(tokens)} tokens served in ${span}`,
          playground ? `, ${formatNumber(playground)} of them from this dashboard’s playground.` : '.',
        ),
        h(
          'div.grid2',
          h('section.panel', h('h2', `Requests per ${unit}, by channel`), barChart({ title: `Requests per ${unit} by channel`, labels, series: requests })),
          h(
            'section.panel',
            h('h2', `Tokens served per ${unit}`),
            lineChart({ title: `Tokens served per ${unit}`, labels, series: [{ name: 'tokens', values: rows.map((d) => d.tokens ?? 0) }] }),
          ),
        ),
        h(
          'section.panel',
          h('h2', 'Top libraries'),
          summary.topLibraries.length
            ? [
                rankChart({
                  title: 'Top libraries by requests',
                  items: summary.topLibraries.map((l) => ({ label: l.libraryId, value: l.requests })),
                  valueLabel: 'requests',
                }),
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
      const { body: m, bucket } = await windowFor(range.value, (d, b) => get(USAGE.metrics, { libraryId: library.value, days: d, bucket: b }, { signal }));
      const { labels, rows, unit } = buckets(m, bucket);
      mount(
        perLibrary,
        h('p', `${formatNumber(m.totals?.requests)} requests, ${formatNumber(m.totals?.tokens)} tokens.`),
        h(
          'div.grid2',
          h(
            'section.panel',
            h('h3', `Requests per ${unit}`),
            barChart({
              title: `Requests per ${unit} for ${m.libraryId}`,
              labels,
              series: CHANNELS.map(([key, name]) => ({ name, values: rows.map((d) => d[key] ?? 0) })),
            }),
          ),
          h(
            'section.panel',
            h('h3', 'Top queries'),
            table(
              [
                { label: 'Query', cell: (q) => q.query },
                { label: 'Count', num: true, cell: (q) => formatNumber(q.count) },
              ],
              m.topQueries ?? [],
              { empty: 'No queries yet.' },
            ),
          ),
        ),
      );
    } catch (error) {
      if (error.name !== 'AbortError') showError(perLibrary, error);
    }
  };

  range.addEventListener('change', () => {
    history.replaceState(null, '', `#/usage${range.value === 'auto' ? '' : `?range=${range.value}`}`);
    void loadOverall();
    void loadLibrary();
  });
  library.addEventListener('change', loadLibrary);
  get('/libraries', undefined, { signal })
    .then(({ libraries = [] }) => library.append(...libraries.map((l) => h('option', { value: l.id }, l.id))))
    .catch(() => undefined);
  await Promise.all([loadOverall(), loadLibrary()]);
}
