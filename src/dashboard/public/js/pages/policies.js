// A team's library policy (the Context7 shape of /v2/policies): which libraries search shows
// and context serves to the team's members.
import { h, mount, field, checkbox } from '../dom.js';
import { get, patch, post } from '../api.js';
import { busy, errorBox, flash, page, showError } from '../ui.js';
import { POLICIES, TEAMS } from '../endpoints.js';
import { isAdmin, session } from '../session.js';

/** Whether the signed-in user may change this team's policy (its owners and admins); others read it. */
const canEdit = (teamId) => isAdmin() || (session.me?.teams ?? []).some((t) => t.id === teamId && t.myRole === 'owner');

/** A library id as policies hold them (parseLibraryId without a version): "/owner/repo". */
const SEGMENT = '[A-Za-z0-9_.][A-Za-z0-9_.-]{0,99}';
const LIBRARY_ID = new RegExp(`^/${SEGMENT}/${SEGMENT}$`);
export const isLibraryId = (id) => LIBRARY_ID.test(id) && !id.split('/').some((p) => p === '.' || p === '..');

const SOURCES = [
  ['github', 'GitHub'],
  ['gitlab', 'GitLab'],
  ['bitbucket', 'Bitbucket'],
  ['git', 'Other Git'],
  ['openapi', 'OpenAPI'],
];

const lines = (text) =>
  text
    .split(/[\n,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

export async function renderPolicies({ root, query, signal }) {
  const slot = h('div', h('p.muted', 'Loading…'));
  const teamSelect = h('select', { id: 'policy-team', name: 'teamId' });
  mount(
    root,
    ...page(
      'Policies',
      h('p.muted', 'Limit which libraries a team may use. Search hides the others, and asking for their docs or adding them is refused.'),
      h('div.toolbar', h('div', field('Team', teamSelect))),
      slot,
    ),
  );

  let teams = [];
  try {
    teams = TEAMS.items(await get(TEAMS.list, undefined, { signal }));
  } catch (error) {
    if (error.name === 'AbortError') return;
  }
  if (teams.length === 0) {
    // Policies belong to teams: without one there is nothing to show (not a "team_not_found").
    mount(slot, h('div.alert.info', 'You are not in a team yet. Policies belong to teams; an administrator can add you to one on the Teams page.'));
    teamSelect.closest('.toolbar')?.remove();
    return;
  }
  mount(
    teamSelect,
    teams.map((t) => h('option', { value: t.id }, t.name)),
  );
  const wanted = query.get('team');
  if (wanted && teams.some((t) => t.id === wanted)) teamSelect.value = wanted;

  const load = async () => {
    try {
      const filters = POLICIES.read(await get(POLICIES.path, POLICIES.query(teamSelect.value), { signal }));
      mount(slot, policyForm(filters, teamSelect.value, load, canEdit(teamSelect.value)));
    } catch (error) {
      if (error.name !== 'AbortError') showError(slot, error);
    }
  };
  teamSelect.addEventListener('change', () => {
    history.replaceState(null, '', `#/policies?team=${encodeURIComponent(teamSelect.value)}`);
    void load();
  });
  await load();
}

function policyForm(f, teamId, reload, editable) {
  const modeQuality = h('input', { type: 'radio', name: 'mode', value: 'quality', checked: f.mode !== 'select', id: 'mode-quality' });
  const modeSelect = h('input', { type: 'radio', name: 'mode', value: 'select', checked: f.mode === 'select', id: 'mode-select' });
  const minTrust = h('input', { type: 'number', name: 'minTrustScore', min: 0, max: 10, step: 0.1, value: f.minTrustScore ?? '', placeholder: 'no minimum' });
  const sources = SOURCES.map(([value, label]) => checkbox(label, { name: 'sourceTypes', value, checked: (f.sourceTypes ?? []).includes(value) }));
  const area = (name, list) => h('textarea', { name, rows: 4, spellcheck: 'false', placeholder: '/owner/repo (one per line)', value: (list ?? []).join('\n') });
  const allowed = area('allowedLibraries', f.allowedLibraries);
  const blocked = area('blockedLibraries', f.blockedLibraries);
  const excepted = area('exceptedLibraries', f.exceptedLibraries);
  const errors = h('div');
  const submit = h('button', { type: 'submit' }, 'Save policy');
  const qualityPart = h(
    'div',
    field('Minimum trust score', minTrust, 'Libraries below it are hidden. Leave empty for no minimum.'),
    h('fieldset', h('legend', 'Source types'), h('p.small.muted', 'None checked: all sources.'), sources),
  );
  const selectPart = h('div', field('Allowed libraries', allowed, 'Only these libraries are available.'));
  const showMode = () => {
    qualityPart.hidden = !modeQuality.checked;
    selectPart.hidden = !modeSelect.checked;
  };
  modeQuality.addEventListener('change', showMode);
  modeSelect.addEventListener('change', showMode);
  showMode();

  const form = h(
    'form.panel',
    { 'aria-label': 'Library filters' },
    errors,
    h(
      'fieldset',
      h('legend', 'Mode'),
      h('label.check', { for: modeQuality.id }, modeQuality, h('span', 'Quality', h('span.hint', 'All libraries that pass the filters below.'))),
      h('label.check', { for: modeSelect.id }, modeSelect, h('span', 'Select', h('span.hint', 'Only the libraries listed as allowed.'))),
    ),
    qualityPart,
    selectPart,
    h(
      'div.grid2',
      field('Blocked libraries', blocked, 'Never available, whatever the mode.'),
      field('Excepted libraries', excepted, 'Always available, whatever the filters.'),
    ),
    h('div.actions', submit),
  );
  if (!editable) {
    // Members read their team's policy: every control is shown as it is, none can change it.
    for (const control of form.querySelectorAll('input, textarea, select')) control.disabled = true;
    form.querySelector('.actions').remove();
    form.prepend(h('div.alert.info', { role: 'note' }, 'You can read this policy: your team’s owners and administrators change it.'));
    form.setAttribute('aria-label', 'Library filters (read only)');
    return form;
  }
  // Library autocomplete: pick an id from the catalogue and put it on a list.
  const options = h('datalist', { id: `policy-libs-${teamId}` });
  get('/libraries').then(
    (body) =>
      mount(
        options,
        (body.libraries ?? []).map((l) => h('option', { value: l.id }, l.title || l.id)),
      ),
    () => undefined,
  );
  const pick = h('input', { type: 'search', name: 'pickLibrary', list: options.id, placeholder: '/owner/repo', spellcheck: 'false', autocomplete: 'off' });
  const target = h(
    'select',
    { name: 'pickTarget' },
    [
      ['allowed', 'Allowed'],
      ['blocked', 'Blocked'],
      ['excepted', 'Excepted'],
    ].map(([v, l]) => h('option', { value: v }, l)),
  );
  const addPick = h('button.secondary', { type: 'button' }, 'Add to the list');
  addPick.addEventListener('click', () => {
    const id = pick.value.trim();
    if (!isLibraryId(id)) {
      mount(errors, errorBox({ code: 'validation_error', message: 'Choose a library id like /owner/repo.' }));
      pick.focus();
      return;
    }
    const area = { allowed, blocked, excepted }[target.value];
    if (!lines(area.value).includes(id)) area.value = [...lines(area.value), id].join('\n');
    if (target.value === 'allowed' && !modeSelect.checked) {
      modeSelect.checked = true;
      showMode();
    }
    pick.value = '';
    mount(errors);
    pick.focus();
  });
  const picker = h(
    'div.row',
    { role: 'group', 'aria-label': 'Add a library to a list' },
    field('Library', pick, 'Type to search the catalogue.'),
    field('List', target),
    h('div.field', addPick),
    options,
  );

  // Preview: what the team would see under these filters, before saving.
  const previewOut = h('div', { 'aria-live': 'polite' });
  const previewBtn = h('button.secondary', { type: 'button' }, 'Preview');
  // The filters as the form holds them: previewed, then saved.
  const draft = () => ({
    mode: modeSelect.checked ? 'select' : 'quality',
    minTrustScore: minTrust.value === '' ? null : Number(minTrust.value),
    sourceTypes: sources
      .map((l) => l.querySelector('input'))
      .filter((i) => i.checked)
      .map((i) => i.value),
    allowedLibraries: lines(allowed.value),
    blockedLibraries: lines(blocked.value),
    exceptedLibraries: lines(excepted.value),
  });
  previewBtn.addEventListener('click', () =>
    busy(
      previewBtn,
      async () => {
        const body = await post(POLICIES.preview, { libraryFilters: draft() }, { query: POLICIES.query(teamId) });
        const item = (l) =>
          h(
            'li',
            h('code', l.id),
            l.title && l.title !== l.id.split('/').pop() ? ` ${l.title}` : '',
            h('span.small.muted', ` · ${l.source} · trust ${l.trustScore}`),
          );
        mount(
          previewOut,
          h(
            'section.panel',
            { 'aria-label': 'Preview' },
            h('h3', `The team would see ${body.visible.length} of ${body.visible.length + body.hidden.length} libraries`),
            h(
              'div.grid2',
              h('div', h('h4', 'Available'), body.visible.length ? h('ul.small', body.visible.map(item)) : h('p.muted', 'None.')),
              h('div', h('h4', 'Hidden'), body.hidden.length ? h('ul.small', body.hidden.map(item)) : h('p.muted', 'None.')),
            ),
            h('p.small.muted', 'Not saved yet.'),
          ),
        );
      },
      { label: 'Previewing…', errorSlot: errors },
    ),
  );
  form.querySelector('.actions').prepend(previewBtn);
  form.insertBefore(picker, form.querySelector('.grid2'));
  form.append(previewOut);

  /** Every listed entry must be a library id: said in words, naming the list and the entry. */
  const checkIds = () => {
    for (const [label, area] of [
      ['Allowed libraries', allowed],
      ['Blocked libraries', blocked],
      ['Excepted libraries', excepted],
    ]) {
      const bad = lines(area.value).find((id) => !isLibraryId(id));
      if (bad) {
        mount(errors, errorBox({ code: 'validation_error', message: `${label}: “${bad}” is not a library id. Write it like /owner/repo, one a line.` }));
        area.focus();
        return false;
      }
    }
    return true;
  };
  previewBtn.addEventListener(
    'click',
    (event) => {
      if (!checkIds()) event.stopImmediatePropagation();
    },
    { capture: true },
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!checkIds()) return;
    const libraryFilters = draft();
    await busy(
      submit,
      async () => {
        await patch(POLICIES.path, { libraryFilters }, { query: POLICIES.query(teamId) });
        flash('ok', 'Policy saved.');
        await reload();
      },
      { label: 'Saving…', errorSlot: errors },
    );
  });
  return form;
}
