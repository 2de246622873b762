// API keys: list, create (the value is shown once), delete (revokes at once).
import { h, mount, field, formatDate } from '../dom.js';
import { get, post, del, API } from '../api.js';
import { busy, confirmDialog, errorBox, flash, page, showError, table } from '../ui.js';
import { KEYS } from '../endpoints.js';
import { connectSetups } from '../connect-setups.js';

export async function renderKeys({ root, signal }) {
  const listSlot = h('div', h('p.muted', 'Loading keys…'));
  const createdSlot = h('div', { 'aria-live': 'polite' });
  const errors = h('div');
  const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 100, placeholder: 'e.g. CI pipeline' });
  const submit = h('button', { type: 'submit' }, 'Create key');
  const form = h(
    'form.panel',
    h('h2', 'Create a key'),
    errors,
    h('div.row', field('Name', name, 'Says where the key is used, so you know which one to delete.'), h('div.field', submit)),
  );

  let sortBy = 'createdAt';
  const sorter = h(
    'select',
    { name: 'sort', id: 'key-sort' },
    [
      ['createdAt', 'Newest first'],
      ['lastUsedAt', 'Last used first'],
      ['name', 'Name'],
    ].map(([v, l]) => h('option', { value: v }, l)),
  );
  sorter.addEventListener('change', () => {
    sortBy = sorter.value;
    void refresh();
  });
  const byKey = (a, b) =>
    sortBy === 'name'
      ? a.name.localeCompare(b.name) || String(b.createdAt).localeCompare(String(a.createdAt))
      : String(b[sortBy] ?? '').localeCompare(String(a[sortBy] ?? ''));

  async function refresh() {
    try {
      const keys = (await get(KEYS.list, undefined, { signal }).then(KEYS.items)).sort(byKey);
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
              cell: (k) =>
                h(
                  'button.danger',
                  { type: 'button', 'data-key-id': k.id, 'aria-label': `Delete key ${k.name}`, onclick: (e) => remove(k, e.currentTarget) },
                  'Delete',
                ),
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
        // A deleted key's value must not stay on screen (it was the one just created).
        if (createdSlot.dataset.keyId === key.id || createdSlot.dataset.prefix === key.prefix) {
          mount(createdSlot);
          delete createdSlot.dataset.keyId;
        }
        flash('ok', `The key “${key.name}” was deleted and no longer works.`);
        // Focus goes to the next key's delete button (or the list's heading), not to the page's top.
        const rows = [...listSlot.querySelectorAll('button[data-key-id]')].map((b) => b.dataset.keyId);
        const next = rows[rows.indexOf(key.id) + 1] ?? rows[rows.indexOf(key.id) - 1];
        await refresh();
        const target = next ? listSlot.querySelector(`button[data-key-id="${CSS.escape(next)}"]`) : listHeading;
        target?.focus();
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
        createdSlot.dataset.keyId = created.id ?? '';
        createdSlot.dataset.prefix = created.prefix ?? '';
        showOnce(createdSlot, value, name);
        await refresh();
      },
      { label: 'Creating…', errorSlot: errors },
    );
  });

  const listHeading = h('h2', { tabindex: '-1' }, 'Your keys');
  mount(
    root,
    ...page(
      'API keys',
      h(
        'p.muted',
        'Keys authenticate scripts and coding assistants (Authorization: Bearer <key>). A key acts with your role, has no expiry, and is shown only once. ',
        h('a', { href: '#/connect' }, 'Connect an assistant'),
        ' makes one and sets it up for your assistant.',
      ),
      createdSlot,
      form,
      listHeading,
      h('div.toolbar', field('Sort', sorter)),
      listSlot,
    ),
  );
  await refresh();
}

/** The one time a key's value is visible: a read-only field, a copy button, a done button. */
function showOnce(slot, value, focusAfter) {
  const input = h('input', { type: 'text', readonly: true, value, 'aria-label': 'New API key', id: 'new-key-value', spellcheck: 'false', autocomplete: 'off' });
  const status = h('span.small', { role: 'status' });
  const copy = h('button', { type: 'button', onclick: () => copyText(input, status) }, 'Copy');
  const done = h(
    'button.secondary',
    {
      type: 'button',
      onclick: () => {
        mount(slot);
        focusAfter.focus();
      },
    },
    'Done',
  );
  const configs = h('div');
  mount(
    slot,
    h(
      'div.panel.alert.ok',
      h('h2', 'Your new key'),
      h('p', 'Copy it now and keep it somewhere safe: it will not be shown again.'),
      h('div.secret', input, copy, done),
      status,
      testKey(value),
      configs,
      h('p.small', 'The ', h('a', { href: '#/connect' }, 'Connect'), ' page has these setups any time, and tests them.'),
    ),
  );
  get('/connect').then(
    (info) => mount(configs, mcpConfigs(value, info)),
    () => undefined,
  );
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

/** "Test this key": one authenticated call with the key alone (no session cookie is sent). */
function testKey(value) {
  const out = h('span.small', { role: 'status' });
  const button = h('button.secondary', { type: 'button' }, 'Test this key');
  button.addEventListener('click', async () => {
    button.disabled = true;
    out.textContent = 'Testing…';
    try {
      const res = await fetch(`${API}/auth/me`, { headers: { Authorization: `Bearer ${value}` }, credentials: 'omit', cache: 'no-store' });
      const body = await res.json().catch(() => ({}));
      out.textContent = res.ok ? `The key works: it acts as ${body.username ?? 'you'} (${body.role ?? 'member'}).` : `The key was refused (${res.status}).`;
    } catch {
      out.textContent = 'The server could not be reached.';
    } finally {
      button.disabled = false;
    }
  });
  return h('div.actions', button, out);
}

/** Ready-to-paste setups for this server and key (the Connect page's, js/connect-setups.js). */
function mcpConfigs(value, info) {
  const setups = connectSetups({ mcpUrl: info.mcpUrl, apiUrl: info.publicUrl, key: value, stdio: info.stdio });
  const views = setups.map((s, i) =>
    h(
      'div',
      { id: `mcp-view-${i}`, role: 'tabpanel', 'aria-labelledby': `mcp-tab-${i}`, hidden: i !== 0 },
      h('p.small', s.where),
      h('pre', { tabindex: '0', 'aria-label': `${s.name} configuration` }, s.text),
      copyButton(s.text, s.name),
    ),
  );
  const tabs = setups.map((s, i) =>
    h(
      'button',
      { type: 'button', role: 'tab', id: `mcp-tab-${i}`, 'aria-controls': `mcp-view-${i}`, 'aria-selected': String(i === 0), onclick: () => select(i) },
      s.name,
    ),
  );
  const select = (n) => {
    tabs.forEach((t, i) => t.setAttribute('aria-selected', String(i === n)));
    views.forEach((v, i) => {
      v.hidden = i !== n;
    });
  };
  return h(
    'section.config-tabs',
    { 'aria-label': 'Set up a coding assistant' },
    h('h3', 'Set up a coding assistant'),
    h('div.tabs', { role: 'tablist', 'aria-label': 'Client' }, tabs),
    views,
  );
}

function copyButton(text, name) {
  const status = h('span.small', { role: 'status' });
  const button = h('button.secondary', { type: 'button', 'aria-label': `Copy the ${name} configuration` }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = 'Copied.';
    } catch {
      status.textContent = 'Select the text and copy it.';
    }
  });
  return h('div.actions', button, status);
}
