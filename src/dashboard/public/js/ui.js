// Shared page pieces: flash messages, error boxes, tables, confirmation dialogs, polling.
import { h, mount } from './dom.js';

let pendingFlash = null;

/** Shows a message above the page (`next`: keep it for the next navigation instead). */
export function flash(kind, text, { next = false } = {}) {
  if (next) {
    pendingFlash = { kind, text };
    return;
  }
  const box = document.getElementById('flash');
  mount(box, h('div', { class: ['alert', kind] }, text));
}

/** Called by the router on every navigation. */
export function resetFlash() {
  const box = document.getElementById('flash');
  mount(box);
  if (pendingFlash) {
    flash(pendingFlash.kind, pendingFlash.text);
    pendingFlash = null;
  }
}

/**
 * What an API error code means to a person. The code itself is never shown (it is jargon);
 * it stays on the box as data-code for support and tests.
 */
const ERROR_TITLES = {
  validation_error: 'Please check what was entered.',
  invalid_library_id: 'That library id is not valid.',
  invalid_api_key: 'You are not signed in.',
  access_denied: 'Your team’s policy does not allow this library.',
  forbidden: 'You are not allowed to do this.',
  library_not_found: 'No such library.',
  tag_not_found: 'No such version.',
  no_snippets_found: 'No documentation was found.',
  team_not_found: 'No such team.',
  user_not_found: 'No such user.',
  no_libraries_found: 'No library matched.',
  not_found: 'Not found.',
  duplicate_repo: 'This repository is already in your team.',
  conflict: 'That conflicts with the current state.',
  payload_too_large: 'That is too large.',
  rate_limit_exceeded: 'Too many requests: wait a moment and try again.',
  internal_error: 'Something went wrong on the server.',
  service_unavailable: 'The server is not ready.',
  timeout: 'This takes longer than the server waits.',
  network_error: 'The server could not be reached.',
};

export function errorTitle(code) {
  return ERROR_TITLES[code] ?? 'That did not work.';
}

/**
 * The words for the API's field names a form's errors may start with ("docsRepoUrl: must be
 * …" reads "Repository URL: must be …"): people see the labels they typed into.
 */
const FIELD_LABELS = {
  docsRepoUrl: 'Repository URL',
  gitToken: 'Access token',
  libraryName: 'Library',
  url: 'URL',
  scope: 'Scope',
  maxPages: 'Most pages',
  maxDepth: 'Most link depth',
  include: 'Only URLs matching',
  exclude: 'Never URLs matching',
  headers: 'Request headers',
  openapiFile: 'File',
  archiveFile: 'Archive',
  libraryTitle: 'Title',
  description: 'Description',
  title: 'Title',
  aliases: 'Aliases',
  trustScore: 'Trust score',
  schedule: 'Refresh schedule',
  versionRule: 'Version rule',
  'versionRule.range': 'Range',
  'versionRule.pattern': 'Pattern',
  'versionRule.count': 'How many minor lines',
  name: 'Name',
  username: 'Username',
  newPassword: 'New password',
  'libraryFilters.allowedLibraries': 'Allowed libraries',
  'libraryFilters.blockedLibraries': 'Blocked libraries',
  'libraryFilters.exceptedLibraries': 'Excepted libraries',
  'libraryFilters.minTrustScore': 'Minimum trust score',
  'libraryFilters.sourceTypes': 'Source types',
  'libraryFilters.mode': 'Mode',
};

/** The API's compound field names (docsRepoUrl, versionRule.range) anywhere in a message, longest first. */
const FIELD_NAMES = Object.keys(FIELD_LABELS)
  .filter((k) => k.includes('.') || /[a-z][A-Z]/.test(k))
  .sort((a, b) => b.length - a.length);
const FIELD_NAME_RE = new RegExp(`\\b(${FIELD_NAMES.map((k) => k.replace(/\./g, '\\.')).join('|')})\\b`, 'g');

/** A message that begins with (or names) an API field, in the words of the form's labels instead. */
export function plainMessage(message) {
  const led = String(message).replace(/^([A-Za-z][\w]*(?:\.[A-Za-z]\w*)*)((?:\.\d+)*)(:| )/, (all, path, index, sep) => {
    const label = FIELD_LABELS[path];
    if (!label) return all;
    const item = index ? ` (entry ${Number(index.split('.').pop()) + 1})` : '';
    return `${label}${item}${sep}`;
  });
  return led.replace(FIELD_NAME_RE, (name) => FIELD_LABELS[name]);
}

/** An error box for a failed call: a plain-language title, then the API's message in words. */
export function errorBox(error, { title } = {}) {
  const message = plainMessage(error?.message ?? String(error));
  const heading = title ?? errorTitle(error?.code);
  return h(
    'div.alert.error',
    { role: 'alert', 'data-code': error?.code || undefined },
    h('strong', heading),
    message && message !== heading ? ` ${message}` : null,
  );
}

/** Replaces `slot`'s content with an error box. */
export function showError(slot, error) {
  mount(slot, errorBox(error));
  slot.hidden = false;
}

/** Sets the tab's title (every page has its own, so history and tabs can be told apart). */
export function setTitle(title) {
  document.title = `${title} · Shelfmark`;
}

/** The page frame: a heading and the content. */
export function page(title, ...children) {
  document.title = `${title} · Shelfmark`;
  return [h('h1', title), ...children];
}

/**
 * A table. columns: [{ label, num?, cell(row) → node|string }]; rows: array.
 * `empty` is shown when there are no rows.
 */
export function table(columns, rows, { empty = 'Nothing here yet.', caption } = {}) {
  if (rows.length === 0) return h('p.muted', empty);
  // data-label lets a narrow screen show each row as a card with labelled fields (app.css).
  return h(
    'div.table-wrap',
    h(
      'table.cards',
      caption ? h('caption.muted', caption) : null,
      h(
        'thead',
        h(
          'tr',
          columns.map((c) => h('th', { class: c.num ? 'num' : undefined, scope: 'col' }, c.label)),
        ),
      ),
      h(
        'tbody',
        rows.map((r) => tableRow(columns, r)),
      ),
    ),
  );
}

/** One row of `table` (pages that update rows in place build them with this). */
export function tableRow(columns, row) {
  return h(
    'tr',
    columns.map((c) => h('td', { class: c.num ? 'num' : undefined, 'data-label': c.label || undefined }, c.cell(row))),
  );
}

/**
 * A modal confirmation (native <dialog>: focus stays inside, Esc cancels, the previously
 * focused control gets focus back). Resolves true when confirmed.
 */
export function confirmDialog({ title, message, confirmLabel = 'Confirm', danger = false }) {
  return new Promise((resolve) => {
    const previous = document.activeElement;
    const cancel = h('button.secondary', { type: 'button', onclick: () => dialog.close('cancel') }, 'Cancel');
    const ok = h('button', { type: 'submit', class: danger ? 'danger' : undefined, value: 'confirm' }, confirmLabel);
    const dialog = h(
      'dialog',
      { 'aria-labelledby': 'dlg-title', 'aria-describedby': 'dlg-text' },
      h('form', { method: 'dialog' }, h('h2', { id: 'dlg-title' }, title), h('p', { id: 'dlg-text' }, message), h('div.actions', cancel, ok)),
    );
    // A modal dialog makes the page inert, but Tab can still leave for the browser's own UI:
    // keep it cycling between the dialog's buttons.
    dialog.addEventListener('keydown', (event) => {
      if (event.key !== 'Tab') return;
      const items = [...dialog.querySelectorAll('button, [href], input, select, textarea')].filter((el) => !el.disabled);
      const first = items[0];
      const last = items[items.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (previous instanceof HTMLElement) previous.focus();
      resolve(dialog.returnValue === 'confirm');
    });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus(); // the safe choice is the default one
  });
}

/**
 * Runs `fn` while `button` shows it is busy (disabled, label changed); errors go to
 * `errorSlot` when one is given, else they are rethrown.
 */
export async function busy(button, fn, { label = 'Working…', errorSlot } = {}) {
  const original = button.textContent;
  button.disabled = true;
  button.textContent = label;
  if (errorSlot) mount(errorSlot);
  try {
    return await fn();
  } catch (error) {
    if (!errorSlot) throw error;
    showError(errorSlot, error);
    return undefined;
  } finally {
    button.disabled = false;
    button.textContent = original;
  }
}

/** Calls `fn` every `ms` until it returns false or `signal` aborts (no overlapping runs). */
export function every(ms, fn, signal) {
  let timer;
  const tick = async () => {
    if (signal.aborted) return;
    let again = true;
    try {
      again = (await fn()) !== false;
    } catch (error) {
      if (error?.name === 'AbortError') return;
      again = true;
    }
    if (again && !signal.aborted) timer = setTimeout(tick, ms);
  };
  signal.addEventListener('abort', () => clearTimeout(timer));
  timer = setTimeout(tick, ms);
}

export const TERMINAL_JOB_STATES = ['finalized', 'failed', 'cancelled'];

/**
 * Call before a row's delete: returns what to call once the list is drawn again, which
 * focuses the same control of the next row (else the one before, else the page heading), so
 * keyboard users are not thrown back to the top of the page.
 */
export function refocusAfterRemoval(button) {
  const sameKind = () => [...document.querySelectorAll('main button[aria-label]')].filter((b) => b.textContent === button.textContent);
  const all = sameKind();
  const i = all.indexOf(button);
  const candidates = [...all.slice(i + 1), ...all.slice(0, Math.max(i, 0)).reverse()].map((b) => b.getAttribute('aria-label'));
  return () => {
    const now = sameKind();
    const next = candidates.map((label) => now.find((b) => b.getAttribute('aria-label') === label)).find(Boolean);
    const target = next ?? document.querySelector('main h1');
    target?.focus();
  };
}
