// Small inline-SVG charts (no chart library): stacked bars, lines, horizontal bars. Each
// chart carries a title for screen readers and a data table; its marks show their values at
// once on hover (a tooltip of our own: the browser's <title> tooltips come late and small).
import { h, s, formatNumber } from './dom.js';

const W = 560;
const PAD = { top: 12, right: 10, bottom: 34, left: 52 };

/** A "nice" upper bound and tick step for values up to `max`. */
export function niceScale(max, ticks = 4) {
  if (!(max > 0)) return { max: 1, step: 1 };
  const raw = max / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((c) => c >= raw) ?? 10 * mag;
  return { max: Math.ceil(max / step) * step, step };
}

const short = (n) => (n >= 1e6 ? `${+(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${+(n / 1e3).toFixed(1)}k` : String(+n.toFixed(2)));

function frame(title, height, yMax, step, labels, plotW) {
  const plotH = height - PAD.top - PAD.bottom;
  const y = (v) => PAD.top + plotH - (v / yMax) * plotH;
  const svg = s('svg', { class: 'chart', viewBox: `0 0 ${W} ${height}`, role: 'img', 'aria-label': title, preserveAspectRatio: 'xMidYMid meet' });
  svg.append(s('title', {}, title));
  for (let v = 0; v <= yMax + 1e-9; v += step) {
    svg.append(s('line', { class: 'grid', x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }));
    svg.append(s('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end' }, short(v)));
  }
  svg.append(s('line', { class: 'axis', x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0) }));
  const every = Math.max(1, Math.ceil(labels.length / 8));
  const slot = plotW / Math.max(labels.length, 1);
  labels.forEach((label, i) => {
    if ((labels.length - 1 - i) % every !== 0) return; // counted from the newest, which is always labelled
    svg.append(s('text', { x: PAD.left + slot * i + slot / 2, y: height - PAD.bottom + 16, 'text-anchor': 'middle' }, label));
  });
  return { svg, y, slot, plotH };
}

function legend(series) {
  return h(
    'ul.legend',
    series.map((se, i) => h('li', h('span', { class: `swatch s${(i % 4) + 1}`, 'aria-hidden': 'true' }), se.name)),
  );
}

function dataTable(title, labels, series) {
  return h(
    'details.small',
    h('summary', 'Show the numbers'),
    h(
      'div.table-wrap',
      h(
        'table',
        h('caption.muted', title),
        h(
          'thead',
          h(
            'tr',
            h('th', { scope: 'col' }, ''),
            series.map((se) => h('th.num', { scope: 'col' }, se.name)),
          ),
        ),
        h(
          'tbody',
          labels.map((label, i) =>
            h(
              'tr',
              h('th', { scope: 'row' }, label),
              series.map((se) => h('td.num', formatNumber(se.values[i] ?? 0))),
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * Bars per label; several series are stacked. series: [{ name, values: number[] }] with one
 * value per label.
 */
export function barChart({ title, labels, series, height = 250 }) {
  const totals = labels.map((_, i) => series.reduce((sum, se) => sum + (se.values[i] ?? 0), 0));
  const { max, step } = niceScale(Math.max(0, ...totals));
  const plotW = W - PAD.left - PAD.right;
  const { svg, y, slot } = frame(title, height, max, step, labels, plotW);
  const bw = Math.max(2, slot * 0.7);
  labels.forEach((label, i) => {
    let base = 0;
    series.forEach((se, k) => {
      const v = se.values[i] ?? 0;
      if (v <= 0) return;
      const rect = s('rect', {
        class: `f${(k % 4) + 1}`,
        x: PAD.left + slot * i + (slot - bw) / 2,
        y: y(base + v),
        width: bw,
        height: Math.max(0.5, y(base) - y(base + v)),
        'data-tip': `${label} · ${se.name}: ${formatNumber(v)}`,
      });
      svg.append(rect);
      base += v;
    });
  });
  return withTips(h('figure.chart-box', svg, series.length > 1 ? legend(series) : null, dataTable(title, labels, series)));
}

/** One line per series over the labels. */
export function lineChart({ title, labels, series, height = 250 }) {
  const { max, step } = niceScale(Math.max(0, ...series.flatMap((se) => se.values)));
  const plotW = W - PAD.left - PAD.right;
  const { svg, y, slot } = frame(title, height, max, step, labels, plotW);
  const x = (i) => PAD.left + slot * i + slot / 2;
  series.forEach((se, k) => {
    const cls = `l${(k % 4) + 1}`;
    svg.append(s('polyline', { class: cls, fill: 'none', 'stroke-width': 2, points: labels.map((_, i) => `${x(i)},${y(se.values[i] ?? 0)}`).join(' ') }));
    labels.forEach((label, i) => {
      const dot = s('circle', {
        class: `f${(k % 4) + 1}`,
        cx: x(i),
        cy: y(se.values[i] ?? 0),
        r: 3,
        'data-tip': `${label} · ${se.name}: ${formatNumber(se.values[i] ?? 0)}`,
      });
      svg.append(dot);
    });
  });
  return withTips(h('figure.chart-box', svg, legend(series), dataTable(title, labels, series)));
}

/** Horizontal bars for a ranking: items [{ label, value }]. */
export function rankChart({ title, items, valueLabel = 'value' }) {
  const RW = 960; // drawn full width: a wider box keeps the text at its size
  const rowH = 26;
  const labelW = 200;
  const height = PAD.top + items.length * rowH + 8;
  const { max } = niceScale(Math.max(0, ...items.map((i) => i.value)));
  const svg = s('svg', { class: 'chart', viewBox: `0 0 ${RW} ${height}`, role: 'img', 'aria-label': title });
  svg.append(s('title', {}, title));
  const plotW = RW - labelW - 80;
  items.forEach((item, i) => {
    const top = PAD.top + i * rowH;
    const text = item.label.length > 34 ? `${item.label.slice(0, 33)}…` : item.label;
    svg.append(s('text', { x: labelW - 8, y: top + 15, 'text-anchor': 'end' }, text));
    const rect = s('rect', {
      class: 'f1',
      x: labelW,
      y: top + 3,
      height: rowH - 8,
      width: Math.max(1, (item.value / max) * plotW),
      'data-tip': `${item.label}: ${formatNumber(item.value)} ${valueLabel}`,
    });
    svg.append(rect);
    svg.append(s('text', { x: labelW + Math.max(1, (item.value / max) * plotW) + 6, y: top + 15 }, formatNumber(item.value)));
  });
  return withTips(
    h(
      'figure.chart-box',
      svg,
      dataTable(
        title,
        items.map((i) => i.label),
        [{ name: valueLabel, values: items.map((i) => i.value) }],
      ),
    ),
  );
}

/**
 * A figure whose marks (`data-tip`) show their value at once under the pointer. For
 * keyboards and screen readers the same numbers are in the figure's data table.
 */
function withTips(figure) {
  const tip = h('div.chart-tip', { hidden: true, 'aria-hidden': 'true' });
  figure.append(tip);
  figure.addEventListener('pointermove', (event) => {
    const mark = event.target instanceof Element ? event.target.closest('[data-tip]') : null;
    if (!mark) {
      tip.hidden = true;
      return;
    }
    const box = figure.getBoundingClientRect();
    tip.textContent = mark.getAttribute('data-tip');
    tip.style.left = `${event.clientX - box.left}px`;
    tip.style.top = `${event.clientY - box.top}px`;
    tip.hidden = false;
  });
  figure.addEventListener('pointerleave', () => {
    tip.hidden = true;
  });
  return figure;
}
