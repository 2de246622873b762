// Which operations callers without a key may perform (all off by default).
import { h, mount } from '../dom.js';
import { get, put } from '../api.js';
import { busy, flash, page, showError } from '../ui.js';
import { PERMISSIONS } from '../endpoints.js';

export async function renderPermissions({ root, signal }) {
  const errors = h('div');
  mount(root, ...page('Permissions', h('p.muted', 'Loading…')));
  let current;
  try {
    current = PERMISSIONS.read(await get(PERMISSIONS.path, undefined, { signal }));
  } catch (error) {
    if (error.name === 'AbortError') return;
    mount(root, ...page('Permissions', errors));
    showError(errors, error);
    return;
  }
  const boxes = current.operations.map((op) => {
    const input = h('input', { type: 'checkbox', name: op.name, checked: op.allowed, id: `perm-${op.name}` });
    return { op, input, el: h('label.check', { for: input.id }, input, h('span', op.label, op.description ? h('span.hint', op.description) : null)) };
  });
  const submit = h('button', { type: 'submit' }, 'Save permissions');
  const form = h(
    'form.panel',
    errors,
    h(
      'fieldset',
      h('legend', 'Allowed without authentication'),
      boxes.map((b) => b.el),
    ),
    current.note ? h('p.small.muted', current.note) : null,
    h('div.actions', submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    await busy(
      submit,
      async () => {
        const allowed = Object.fromEntries(boxes.map((b) => [b.op.name, b.input.checked]));
        await put(PERMISSIONS.path, PERMISSIONS.write(allowed, current));
        flash('ok', 'Permissions saved.');
      },
      { label: 'Saving…', errorSlot: errors },
    );
  });
  mount(
    root,
    ...page(
      'Permissions',
      h(
        'p.muted',
        'Search and context are public unless the server runs with a global API_KEY. The operations below need a key unless you allow them here for everyone.',
      ),
      form,
    ),
  );
}
