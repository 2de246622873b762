// DOM building without HTML strings: every piece of text becomes a text node, so nothing
// that comes from the API or a user can be interpreted as markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A link target is kept only when it is relative, a fragment, or http(s). */
export function safeHref(href) {
  const s = String(href ?? '');
  if (s.startsWith('#') || s.startsWith('/') || s.startsWith('./')) return s;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : '#';
  } catch {
    return '#';
  }
}

function applyAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'innerHTML' || k === 'outerHTML' || k === 'style' || k === 'srcdoc') throw new Error(`h(): "${k}" is not allowed`);
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'href') el.setAttribute('href', safeHref(v));
    else if (k === 'value' || k === 'checked' || k === 'selected' || k === 'disabled' || k === 'indeterminate') el[k] = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'ref') v(el);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false || c === true) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** h('tag.class', {attrs}, ...children): an element; strings become text nodes. */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElement(name || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (attrs && (attrs instanceof Node || typeof attrs !== 'object' || Array.isArray(attrs))) children.unshift(attrs);
  else applyAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element with attributes (numbers are fine). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs ?? {})) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  append(el, children);
  return el;
}

/** Replaces the children of `el`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let idCounter = 0;
export const uid = (prefix = 'f') => `${prefix}-${++idCounter}`;

/** A labelled form field: label + control (+ hint), with matching ids for screen readers. */
export function field(labelText, control, hint) {
  const id = control.id || (control.id = uid());
  const hintEl = hint ? h('p.hint', { id: `${id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div.field', h('label', { for: id }, labelText), control, hintEl);
}

/** A checkbox with its label (and optional hint) on one line. */
export function checkbox(labelText, attrs = {}, hint) {
  const input = h('input', { type: 'checkbox', ...attrs });
  return h('label.check', input, h('span', labelText, hint ? h('span.hint', hint) : null));
}

export function formatDate(value) {
  if (!value) return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function formatNumber(n) {
  return typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en-US') : '—';
}

const STATE_CLASS = {
  finalized: 'ok',
  ok: 'ok',
  queued: 'run',
  cloning: 'run',
  parsing: 'run',
  indexing: 'run',
  processing: 'run',
  failed: 'bad',
  cancelled: 'warn',
  deleted: 'warn',
};
export function stateBadge(state) {
  return h('span', { class: ['badge', STATE_CLASS[state]] }, state ?? 'unknown');
}
