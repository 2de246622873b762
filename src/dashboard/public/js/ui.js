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

/** An error box for a failed call (the API's message; the code for reference). */
export function errorBox(error) {
  const code = error?.code && !String(error.code).startsWith('http_') ? ` (${error.code})` : '';
  return h('div.alert.error', { role: 'alert' }, `${error?.message ?? String(error)}${code}`);
}

/** Replaces `slot`'s content with an error box. */
export function showError(slot, error) {
  mount(slot, errorBox(error));
  slot.hidden = false;
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
  return h(
    'div.table-wrap',
    h(
      'table',
      caption ? h('caption.muted', caption) : null,
      h('thead', h('tr', columns.map((c) => h('th', { class: c.num ? 'num' : undefined, scope: 'col' }, c.label)))),
      h('tbody', rows.map((r) => h('tr', columns.map((c) => h('td', { class: c.num ? 'num' : undefined }, c.cell(r)))))),
    ),
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
