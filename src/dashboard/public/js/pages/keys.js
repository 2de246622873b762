// API keys: list, create (the value is shown once), delete (revokes at once).
import { h, mount, field, formatDate } from '../dom.js';
import { get, post, del } from '../api.js';
import { busy, confirmDialog, errorBox, flash, page, showError, table } from '../ui.js';
import { KEYS } from '../endpoints.js';

export async function renderKeys({ root, signal }) {
  const listSlot = h('div', h('p.muted', 'Loading keys…'));
  const createdSlot = h('div', { 'aria-live': 'polite' });
  const errors = h('div');
  const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 100, placeholder: 'e.g. CI pipeline' });
  const submit = h('button', { type: 'submit' }, 'Create key');
  const form = h('form.panel', h('h2', 'Create a key'), errors, h('div.row', field('Name', name, 'Says where the key is used, so you know which one to delete.'), h('div.field', submit)));

  async function refresh() {
    try {
      const keys = await get(KEYS.list, undefined, { signal }).then(KEYS.items);
      mount(
        listSlot,
        table(
          [
            { label: 'Name', cell: (k) => k.name },
            { label: 'Key', cell: (k) => h('code', k.prefix ? `${k.prefix}…` : '•••') },
            { label: 'Created', cell: (k) => formatDate(k.createdAt) },
            { label: 'Last used', cell: (k) => (k.lastUsedAt ? formatDate(k.lastUsedAt) : 'never') },
            {
              label: 'Actions',
              cell: (k) => h('button.danger', { type: 'button', 'aria-label': `Delete key ${k.name}`, onclick: (e) => remove(k, e.currentTarget) }, 'Delete'),
            },
          ],
          keys,
          { empty: 'No API keys yet. Create one above.' },
        ),
      );
    } catch (error) {
      if (error.name !== 'AbortError') showError(listSlot, error);
    }
  }

  async function remove(key, button) {
    const ok = await confirmDialog({
      title: `Delete the key “${key.name}”?`,
      message: 'Anything using this key is refused from now on. This cannot be undone.',
      confirmLabel: 'Delete key',
      danger: true,
    });
    if (!ok) return;
    await busy(button, async () => {
      try {
        await del(KEYS.item(key.id));
        flash('ok', `The key “${key.name}” was deleted and no longer works.`);
        await refresh();
      } catch (error) {
        mount(errors, errorBox(error));
      }
    });
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    await busy(
      submit,
      async () => {
        const created = await post(KEYS.list, { name: name.value.trim() });
        const value = KEYS.value(created);
        name.value = '';
        showOnce(createdSlot, value, name);
        await refresh();
      },
      { label: 'Creating…', errorSlot: errors },
    );
  });

  mount(root, ...page('API keys', h('p.muted', 'Keys authenticate scripts and coding assistants (Authorization: Bearer <key>). A key acts with your role, has no expiry, and is shown only once.'), createdSlot, form, h('h2', 'Your keys'), listSlot));
  await refresh();
}

/** The one time a key's value is visible: a read-only field, a copy button, a done button. */
function showOnce(slot, value, focusAfter) {
  const input = h('input', { type: 'text', readonly: true, value, 'aria-label': 'New API key', id: 'new-key-value', spellcheck: 'false', autocomplete: 'off' });
  const status = h('span.small', { role: 'status' });
  const copy = h('button', { type: 'button', onclick: () => copyText(input, status) }, 'Copy');
  const done = h('button.secondary', { type: 'button', onclick: () => { mount(slot); focusAfter.focus(); } }, 'Done');
  mount(slot, h('div.panel.alert.ok', h('h2', 'Your new key'), h('p', 'Copy it now and keep it somewhere safe: it will not be shown again.'), h('div.secret', input, copy, done), status));
  input.focus();
  input.select();
}

async function copyText(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    // no clipboard API (plain http on another host): fall back to the selection
    input.select();
    document.execCommand?.('copy');
  }
  status.textContent = 'Copied to the clipboard.';
}
