// Teams (plans, members and their team roles) and users (their global roles).
import { h, mount, field, formatDate } from '../dom.js';
import { get, post, patch, del } from '../api.js';
import { busy, confirmDialog, flash, page, showError, table, errorBox, refocusAfterRemoval } from '../ui.js';
import { navigate } from '../router.js';
import { isAdmin, session } from '../session.js';
import { TEAMS, USERS, PLANS } from '../endpoints.js';

const teamHref = (id) => `#/teams/${encodeURIComponent(id)}`;
const planName = (plans, id) => plans.find((p) => p.id === id)?.name ?? id;

async function loadPlans(signal) {
  return PLANS.items(await get(PLANS.list, undefined, { signal }).catch(() => ({ plans: [] })));
}

function planSelect(plans, value, attrs = {}) {
  const select = h(
    'select',
    { name: 'plan', ...attrs },
    plans.map((p) => h('option', { value: p.id }, `${p.name}${p.privateRepositories ? ' (private repositories)' : ''}`)),
  );
  if (value) select.value = value;
  return select;
}

export async function renderTeams({ root, signal }) {
  const teamsSlot = h('div', h('p.muted', 'Loading teams…'));
  const usersSlot = h('div');
  const plans = await loadPlans(signal);
  let teamNames = new Map();
  mount(
    root,
    ...page(
      'Teams and users',
      h('h2', 'Teams'),
      teamsSlot,
      isAdmin() ? createTeamForm(plans) : null,
      isAdmin() ? [h('h2', 'Users'), usersSlot, createUserForm()] : null,
    ),
  );

  async function loadTeams() {
    try {
      const teams = TEAMS.items(await get(TEAMS.list, undefined, { signal }));
      teamNames = new Map(teams.map((t) => [t.id, t.name]));
      mount(
        teamsSlot,
        table(
          [
            { label: 'Team', cell: (t) => h('a', { href: teamHref(t.id) }, t.name) },
            { label: 'Plan', cell: (t) => planName(plans, t.plan) },
            { label: 'Private repositories', cell: (t) => (t.privateRepositories ? 'yes' : 'no') },
            { label: 'Your role', cell: (t) => t.myRole ?? '—' },
            { label: 'Created', cell: (t) => formatDate(t.createdAt) },
          ],
          teams,
          { empty: 'You are not a member of any team.' },
        ),
      );
      return teams;
    } catch (error) {
      if (error.name !== 'AbortError') showError(teamsSlot, error);
      return [];
    }
  }

  async function loadUsers() {
    if (!isAdmin()) return;
    try {
      const users = USERS.items(await get(USERS.list, undefined, { signal }));
      mount(
        usersSlot,
        table(
          [
            { label: 'User', cell: (u) => [u.username, u.mustChangePassword ? h('span.badge.warn', ' must change password') : null] },
            { label: 'Role', cell: (u) => roleSelect(u) },
            { label: 'Teams', cell: (u) => (u.teams ?? []).map((m) => `${teamNames.get(m.teamId) ?? m.teamId} (${m.role})`).join(', ') || '—' },
            { label: 'Created', cell: (u) => formatDate(u.createdAt) },
            {
              label: 'Actions',
              cell: (u) =>
                u.id === session.me?.id
                  ? h('span.muted.small', 'you')
                  : h('button.danger', { type: 'button', 'aria-label': `Delete user ${u.username}`, onclick: (e) => deleteUser(u, e.currentTarget) }, 'Delete'),
            },
          ],
          users,
        ),
      );
    } catch (error) {
      if (error.name !== 'AbortError') showError(usersSlot, error);
    }
  }

  function roleSelect(user) {
    const select = h(
      'select',
      { 'aria-label': `Role of ${user.username}` },
      h('option', { value: 'member' }, 'member'),
      h('option', { value: 'admin' }, 'admin'),
    );
    select.value = user.role;
    select.addEventListener('change', async () => {
      try {
        await patch(USERS.item(user.id), { role: select.value });
        flash('ok', `${user.username} is now ${select.value}.`);
      } catch (error) {
        select.value = user.role;
        flash('error', error.message);
      }
    });
    return select;
  }

  async function deleteUser(user, button) {
    const ok = await confirmDialog({
      title: `Delete ${user.username}?`,
      message: 'Their API keys stop working at once and their sessions end. This cannot be undone.',
      confirmLabel: 'Delete user',
      danger: true,
    });
    if (!ok) return;
    const refocus = refocusAfterRemoval(button);
    await busy(button, async () => {
      try {
        await del(USERS.item(user.id));
        flash('ok', `${user.username} was deleted.`);
        await loadUsers();
        refocus();
      } catch (error) {
        flash('error', error.message);
      }
    });
  }

  function createTeamForm(planList) {
    const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 80 });
    const plan = planSelect(planList, 'free');
    const errors = h('div');
    const submit = h('button', { type: 'submit' }, 'Create team');
    const form = h(
      'form.panel',
      { 'aria-labelledby': 'new-team' },
      h('h3', { id: 'new-team' }, 'New team'),
      errors,
      h('div.row', field('Name', name), field('Plan', plan), h('div.field', submit)),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      await busy(
        submit,
        async () => {
          const team = await post(TEAMS.list, { name: name.value.trim(), plan: plan.value });
          flash('ok', `Team ${team.name} created; you are its owner.`, { next: true });
          navigate(teamHref(team.id).slice(1));
        },
        { errorSlot: errors },
      );
    });
    return form;
  }

  function createUserForm() {
    const username = h('input', { type: 'text', name: 'username', required: true, maxlength: 64, autocomplete: 'off' });
    const password = h('input', { type: 'password', name: 'password', required: true, minlength: 8, autocomplete: 'new-password' });
    const role = h('select', { name: 'role' }, h('option', { value: 'member' }, 'member'), h('option', { value: 'admin' }, 'admin'));
    const mustChange = h('input', { type: 'checkbox', name: 'mustChangePassword', checked: true, id: 'new-user-must-change' });
    const errors = h('div');
    const submit = h('button', { type: 'submit' }, 'Create user');
    const form = h(
      'form.panel',
      { 'aria-labelledby': 'new-user' },
      h('h3', { id: 'new-user' }, 'New user'),
      errors,
      h('div.row', field('Username', username), field('Initial password', password), field('Role', role)),
      h('label.check', { for: mustChange.id }, mustChange, h('span', 'Must change the password at first sign-in')),
      h('div.actions', submit),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      await busy(
        submit,
        async () => {
          const user = await post(USERS.list, {
            username: username.value.trim(),
            password: password.value,
            role: role.value,
            mustChangePassword: mustChange.checked,
          });
          username.value = password.value = '';
          flash('ok', `User ${user.username} created. Add them to a team from the team's page.`);
          await loadUsers();
        },
        { errorSlot: errors },
      );
    });
    return form;
  }

  await loadTeams();
  await loadUsers();
}

export async function renderTeam({ root, params, signal }) {
  const id = params.id;
  const body = h('div', h('p.muted', 'Loading…'));
  mount(root, ...page('Team', body));
  const plans = await loadPlans(signal);

  const load = async () => {
    const team = await get(TEAMS.item(id), undefined, { signal });
    root.querySelector('h1').textContent = `Team ${team.name}`;
    document.title = `Team ${team.name} · Shelfmark`;
    const manage = isAdmin() || team.myRole === 'owner' || (team.members ?? []).some((m) => m.userId === session.me?.id && m.role === 'owner');
    mount(
      body,
      settingsForm(team, manage),
      h('h2', 'Members'),
      membersTable(team, manage),
      manage ? addMemberForm(team) : null,
      h('p', h('a', { href: `#/policies?team=${encodeURIComponent(team.id)}` }, 'Edit this team’s library policy')),
      isAdmin() ? deleteTeamButton(team) : null,
    );
  };

  function settingsForm(team, manage) {
    const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 80, value: team.name, disabled: !manage });
    const plan = planSelect(plans, team.plan, { disabled: !isAdmin() });
    const errors = h('div');
    const submit = h('button', { type: 'submit', disabled: !manage }, 'Save');
    const form = h(
      'form.panel',
      { 'aria-label': 'Team settings' },
      errors,
      h(
        'div.row',
        field('Name', name),
        field('Plan', plan, isAdmin() ? 'The plan decides whether the team may add private repositories.' : 'Only admins change plans.'),
        h('div.field', submit),
      ),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const change = {};
      if (name.value.trim() !== team.name) change.name = name.value.trim();
      if (isAdmin() && plan.value !== team.plan) change.plan = plan.value;
      if (Object.keys(change).length === 0) return;
      await busy(
        submit,
        async () => {
          await patch(TEAMS.item(team.id), change);
          flash('ok', 'Team saved.');
          await load();
        },
        { errorSlot: errors },
      );
    });
    return form;
  }

  function membersTable(team, manage) {
    return table(
      [
        { label: 'Member', cell: (m) => m.username },
        {
          label: 'Team role',
          cell: (m) => {
            if (!manage) return m.role;
            const select = h(
              'select',
              { 'aria-label': `Team role of ${m.username}` },
              h('option', { value: 'member' }, 'member'),
              h('option', { value: 'owner' }, 'owner'),
            );
            select.value = m.role;
            select.addEventListener('change', async () => {
              try {
                await patch(TEAMS.member(team.id, m.userId), { role: select.value });
                flash('ok', `${m.username} is now ${select.value} of ${team.name}.`);
              } catch (error) {
                select.value = m.role;
                flash('error', error.message);
              }
            });
            return select;
          },
        },
        {
          label: 'Actions',
          cell: (m) =>
            manage || m.userId === session.me?.id
              ? h(
                  'button.secondary',
                  { type: 'button', 'aria-label': `Remove ${m.username} from the team`, onclick: (e) => removeMember(team, m, e.currentTarget) },
                  m.userId === session.me?.id ? 'Leave' : 'Remove',
                )
              : null,
        },
      ],
      team.members ?? [],
      { empty: 'No members.' },
    );
  }

  async function removeMember(team, member, button) {
    const ok = await confirmDialog({
      title: `Remove ${member.username} from ${team.name}?`,
      message: 'They lose access to the team’s private libraries.',
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    const refocus = refocusAfterRemoval(button);
    await busy(button, async () => {
      try {
        await del(TEAMS.member(team.id, member.userId));
        flash('ok', `${member.username} was removed.`);
        await load();
        refocus();
      } catch (error) {
        flash('error', error.message);
      }
    });
  }

  function addMemberForm(team) {
    const username = h('input', { type: 'text', name: 'username', required: true, autocomplete: 'off' });
    const role = h('select', { name: 'role' }, h('option', { value: 'member' }, 'member'), h('option', { value: 'owner' }, 'owner'));
    const errors = h('div');
    const submit = h('button', { type: 'submit' }, 'Add member');
    const form = h(
      'form.panel',
      { 'aria-labelledby': 'add-member' },
      h('h3', { id: 'add-member' }, 'Add a member'),
      errors,
      h('div.row', field('Username', username), field('Team role', role), h('div.field', submit)),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      await busy(
        submit,
        async () => {
          await post(TEAMS.members(team.id), { username: username.value.trim(), role: role.value });
          flash('ok', `${username.value.trim()} was added to ${team.name}.`);
          await load();
        },
        { errorSlot: errors },
      );
    });
    return form;
  }

  function deleteTeamButton(team) {
    const errors = h('div');
    const button = h(
      'button.danger',
      {
        type: 'button',
        onclick: async () => {
          const ok = await confirmDialog({
            title: `Delete the team ${team.name}?`,
            message: 'Members lose the team’s policy and access. A team that still owns private libraries cannot be deleted. This cannot be undone.',
            confirmLabel: 'Delete team',
            danger: true,
          });
          if (!ok) return;
          await busy(
            button,
            async () => {
              await del(TEAMS.item(team.id));
              flash('ok', `Team ${team.name} was deleted.`, { next: true });
              navigate('/teams');
            },
            { errorSlot: errors },
          );
        },
      },
      'Delete team',
    );
    return h('div.panel', h('h2', 'Danger zone'), errors, button);
  }

  try {
    await load();
  } catch (error) {
    if (error.name !== 'AbortError') mount(body, errorBox(error));
  }
}
