// Credentials: the signed-in user's password, and hosting-account tokens used for private
// repositories. Stored tokens are never shown: only whether a host is connected.
import { h, mount, field, formatDate } from '../dom.js';
import { get, put, del } from '../api.js';
import { busy, confirmDialog, flash, page, showError } from '../ui.js';
import { session, loadMe } from '../session.js';
import { CREDENTIALS } from '../endpoints.js';

const HOSTS = [
  ['github', 'GitHub', 'A fine-grained or classic personal access token with read access to the repositories.'],
  ['gitlab', 'GitLab', 'A personal or project access token with read_repository.'],
  ['bitbucket', 'Bitbucket', 'An app password or repository access token.'],
  ['git', 'Other Git servers', 'Sent as the HTTP password to allow-listed Git servers.'],
];

export async function renderCredentials({ root, signal }) {
  const hostsSlot = h('div', h('p.muted', 'Loading connections…'));
  mount(
    root,
    ...page(
      'Credentials',
      passwordForm(),
      h('h2', 'Hosting-account connections'),
      h('p.muted', 'When you add a private repository without a token, the token of its host is used. Tokens are stored encrypted and never shown again.'),
      hostsSlot,
    ),
  );

  async function refresh() {
    try {
      const connected = CREDENTIALS.read(await get(CREDENTIALS.list, undefined, { signal }));
      mount(
        hostsSlot,
        h(
          'div.grid4',
          HOSTS.map(([host, label, hint]) => hostPanel(host, label, hint, connected.get(host), refresh)),
        ),
      );
    } catch (error) {
      if (error.name !== 'AbortError') showError(hostsSlot, error);
    }
  }
  await refresh();
}

function hostPanel(host, label, hint, info, refresh) {
  const errors = h('div');
  const token = h('input', {
    type: 'password',
    name: `token-${host}`,
    autocomplete: 'off',
    required: true,
    spellcheck: 'false',
    placeholder: info ? 'Enter a new token to replace it' : '',
  });
  const save = h('button', { type: 'submit' }, info ? 'Replace token' : 'Connect');
  const disconnect = info
    ? h(
        'button.secondary',
        {
          type: 'button',
          onclick: async (e) => {
            const button = e.currentTarget;
            const ok = await confirmDialog({
              title: `Disconnect ${label}?`,
              message:
                'The stored token is deleted. Private repositories from this host can then only be added or refreshed with a token given in the request.',
              confirmLabel: 'Disconnect',
              danger: true,
            });
            if (!ok) return;
            await busy(
              button,
              async () => {
                await del(CREDENTIALS.item(host));
                flash('ok', `${label} disconnected.`);
                await refresh();
              },
              { errorSlot: errors },
            );
          },
        },
        'Disconnect',
      )
    : null;
  const form = h(
    'form.panel',
    { 'aria-label': `${label} connection` },
    h('h3', label, ' ', info ? h('span.badge.ok', 'connected') : h('span.badge', 'not connected')),
    info?.updatedAt || info?.createdAt ? h('p.small.muted', `Token saved ${formatDate(info.updatedAt ?? info.createdAt)}.`) : null,
    errors,
    field('Access token', token, hint),
    h('div.actions', save, disconnect),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    await busy(
      save,
      async () => {
        await put(CREDENTIALS.item(host), { token: token.value });
        token.value = '';
        flash('ok', `${label} token saved.`);
        await refresh();
      },
      { label: 'Saving…', errorSlot: errors },
    );
  });
  return form;
}

function passwordForm() {
  const current = h('input', { type: 'password', autocomplete: 'current-password', required: true, name: 'currentPassword' });
  const next = h('input', { type: 'password', autocomplete: 'new-password', required: true, minlength: 8, name: 'newPassword' });
  const again = h('input', { type: 'password', autocomplete: 'new-password', required: true, minlength: 8, name: 'confirmPassword' });
  const errors = h('div');
  const submit = h('button', { type: 'submit' }, 'Change password');
  const form = h(
    'form.panel.narrow',
    { 'aria-labelledby': 'pw-title' },
    h('h2', { id: 'pw-title' }, 'Password'),
    h('p.small.muted', `Signed in as ${session.me?.username ?? ''}.`),
    errors,
    field('Current password', current),
    field('New password', next, 'At least 8 characters.'),
    field('Repeat the new password', again),
    h('div.actions', submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    mount(errors);
    if (next.value !== again.value) {
      mount(errors, h('div.alert.error', 'The two new passwords differ.'));
      again.focus();
      return;
    }
    await busy(
      submit,
      async () => {
        await put('/auth/password', { currentPassword: current.value, newPassword: next.value });
        current.value = next.value = again.value = '';
        await loadMe();
        flash('ok', 'Your password was changed.');
      },
      { label: 'Saving…', errorSlot: errors },
    );
  });
  return form;
}
