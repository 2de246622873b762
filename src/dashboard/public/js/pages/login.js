// Sign in, and the forced change of the default administrator's credentials.
import { h, mount, field } from '../dom.js';
import { post, put } from '../api.js';
import { navigate } from '../router.js';
import { busy, errorBox, flash, page } from '../ui.js';
import { session, loadMe } from '../session.js';

export async function renderLogin({ root, query }) {
  const username = h('input', { type: 'text', name: 'username', autocomplete: 'username', required: true });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const errors = h('div', { role: 'alert' });
  const submit = h('button', { type: 'submit' }, 'Sign in');
  const form = h('form.panel.narrow', { novalidate: false }, errors, field('Username', username), field('Password', password), h('div.actions', submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    mount(errors);
    await busy(
      submit,
      async () => {
        try {
          await post('/auth/login', { username: username.value, password: password.value }, { noAuthRedirect: true });
        } catch (error) {
          // A 401 here is a wrong name or password, not an "API key" problem.
          if (error?.status !== 401) throw error;
          mount(errors, errorBox(error, { title: 'Wrong username or password.' }));
          password.value = '';
          password.focus();
          return;
        }
        await loadMe();
        const next = query.get('next');
        navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/libraries');
      },
      { label: 'Signing in…', errorSlot: errors },
    );
  });
  mount(root, ...page('Sign in', form));
  username.focus();
}

export async function renderChangeCredentials({ root }) {
  const forced = Boolean(session.me?.mustChangePassword);
  const current = h('input', { type: 'password', name: 'currentPassword', autocomplete: 'current-password', required: true });
  const username = h('input', { type: 'text', name: 'username', autocomplete: 'username', required: true, value: session.me?.username ?? '' });
  const next = h('input', { type: 'password', name: 'newPassword', autocomplete: 'new-password', required: true, minlength: 8 });
  const again = h('input', { type: 'password', name: 'confirmPassword', autocomplete: 'new-password', required: true, minlength: 8 });
  const errors = h('div', { role: 'alert' });
  const submit = h('button', { type: 'submit' }, 'Change credentials');
  const form = h(
    'form.panel.narrow',
    errors,
    field('Current password', current),
    field('New username', username, 'You may keep the current name.'),
    field('New password', next, 'At least 8 characters, different from the current one.'),
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
        const body = { currentPassword: current.value, newPassword: next.value };
        if (username.value.trim() && username.value.trim() !== session.me?.username) body.username = username.value.trim();
        await put('/auth/password', body);
        const me = await loadMe();
        flash('ok', 'Your credentials were changed.', { next: true });
        navigate(me ? '/libraries' : '/login');
      },
      { label: 'Saving…', errorSlot: errors },
    );
  });
  mount(
    root,
    ...page(
      forced ? 'Change your credentials' : 'Change password',
      forced
        ? h(
            'div.alert.warn',
            'You signed in with credentials that must be changed (the default administrator’s on a fresh install, or an initial password). Choose a new password, and if you like a new username, before doing anything else.',
          )
        : null,
      form,
    ),
  );
  current.focus();
}
