// A library's settings (admins; PATCH /libraries/:id and its webhook): title and description
// (kept across builds until handed back to the docs), aliases, trust score, refresh schedule,
// version rule, and the push webhook (its secret shown once). Each form saves on its own and
// says what went wrong in words next to it.
import { h, mount, field } from '../dom.js';
import { patch, post, del } from '../api.js';
import { busy, confirmDialog, flash } from '../ui.js';
import { codeBlock } from '../markdown.js';

/** One form: its fields, a save button, errors in words beside it; `body()` is the PATCH body. */
function form({ id, title, hint, fields, body, path, copy, reload, extra }) {
  const errors = h('div');
  const save = h('button', { type: 'submit' }, 'Save');
  const el = h(
    'form.panel',
    { 'aria-labelledby': id },
    h('h2', { id }, title),
    hint ? h('p.small.muted', hint) : null,
    errors,
    fields,
    h('div.actions', save, extra),
  );
  el.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(
      save,
      async () => {
        let sent;
        try {
          sent = body();
        } catch (error) {
          throw Object.assign(error, { code: 'validation_error' });
        }
        await patch(path, sent, { query: copy });
        await reload();
        flash('ok', `${title} saved.`); // after the redraw: the message means the page shows what was saved
      },
      { label: 'Saving…', errorSlot: errors },
    );
  });
  return el;
}

export function settingsForms({ path, copy, lib, reload }) {
  const common = { path, copy, reload };
  const titleInput = h('input', { type: 'text', name: 'title', maxlength: 200, required: true, value: lib.title ?? '' });
  const description = h('textarea', { name: 'description', maxlength: 2000, rows: 3, value: lib.description ?? '' });
  const backToDocs = h('button.secondary', { type: 'button' }, 'Use the docs’ own');
  backToDocs.addEventListener('click', () =>
    busy(backToDocs, async () => {
      await patch(path, { title: null, description: null }, { query: copy });
      flash('ok', 'The next build takes the title and description from the docs again.');
      await reload();
    }),
  );
  const about = form({
    ...common,
    id: 'set-about',
    title: 'Title and description',
    hint: `${lib.edited?.title || lib.edited?.description ? 'Set here: builds keep them.' : 'From the docs (the README’s summary or the docs’ home page); what you save here stays across builds.'} Assistants see both when they resolve a library.`,
    fields: [field('Title', titleInput), field('Description', description)],
    body: () => ({ title: titleInput.value.trim(), description: description.value.trim() }),
    extra: lib.edited?.title || lib.edited?.description ? backToDocs : null,
  });

  const aliases = h('textarea', { name: 'aliases', rows: 2, spellcheck: 'false', value: (lib.aliases ?? []).join('\n'), placeholder: 'nextjs\nnext' });
  const aliasForm = form({
    ...common,
    id: 'set-aliases',
    title: 'Aliases',
    hint: 'Other names resolve-library-id finds this library by (one a line).',
    fields: field('Aliases', aliases),
    body: () => ({
      aliases: [
        ...new Set(
          aliases.value
            .split(/[\n,]+/)
            .map((a) => a.trim())
            .filter(Boolean),
        ),
      ],
    }),
  });

  const trust = h('input', { type: 'number', name: 'trustScore', min: 0, max: 10, step: 0.1, required: true, value: String(lib.trustScore ?? '') });
  const trustForm = form({
    ...common,
    id: 'set-trust',
    title: 'Trust score',
    hint: 'Used by policies (minimum trust score) and search ranking.',
    fields: field('Trust score (0–10)', trust),
    body: () => ({ trustScore: Number(trust.value) }),
  });

  const mode = h(
    'select',
    { name: 'scheduleMode' },
    h('option', { value: 'default' }, 'The source kind’s default'),
    h('option', { value: 'never' }, 'Never'),
    h('option', { value: 'hours' }, 'Every …'),
  );
  const hours = h('input', {
    type: 'number',
    name: 'scheduleHours',
    min: 1,
    max: 8760,
    step: 1,
    value: String(lib.schedule?.mode === 'every' ? lib.schedule.everyHours : 24),
  });
  mode.value = lib.schedule?.mode === 'never' ? 'never' : lib.schedule?.mode === 'every' ? 'hours' : 'default';
  const hoursField = field('Hours between refreshes', hours);
  const showHours = () => {
    hoursField.hidden = mode.value !== 'hours';
  };
  mode.addEventListener('change', showHours);
  showHours();
  const scheduleForm =
    lib.source === 'openapi'
      ? null
      : form({
          ...common,
          id: 'set-schedule',
          title: 'Refresh schedule',
          hint: 'How often the library is checked for new docs (a check that finds no change writes nothing).',
          fields: [field('Refresh', mode), hoursField],
          body: () => ({ schedule: mode.value === 'hours' ? wholeHours(hours.value) : mode.value }),
        });

  const rule = lib.versionRule;
  const kind = h(
    'select',
    { name: 'ruleKind' },
    h('option', { value: '' }, 'No rule'),
    h('option', { value: 'minors' }, 'The last minor lines'),
    h('option', { value: 'range' }, 'A semver range'),
    h('option', { value: 'pattern' }, 'A tag pattern'),
  );
  kind.value = rule?.kind ?? '';
  const count = h('input', { type: 'number', name: 'ruleCount', min: 1, max: 50, value: String(rule?.count ?? 3) });
  const range = h('input', { type: 'text', name: 'ruleRange', value: rule?.range ?? '', placeholder: '>=2.0.0 <4' });
  const pattern = h('input', { type: 'text', name: 'rulePattern', value: rule?.pattern ?? '', placeholder: 'v*.*.0' });
  const parts = { minors: field('How many minor lines', count), range: field('Range', range), pattern: field('Pattern', pattern) };
  const showRule = () => {
    for (const [k, el] of Object.entries(parts)) el.hidden = kind.value !== k;
  };
  kind.addEventListener('change', showRule);
  showRule();
  const ruleForm = !isGitLibrary(lib)
    ? null
    : form({
        ...common,
        id: 'set-rule',
        title: 'Version rule',
        hint: `Which tags are indexed as versions at each build of latest. Now: ${ruleText(rule)}.`,
        fields: [field('Rule', kind), ...Object.values(parts)],
        body: () => ({
          versionRule:
            kind.value === ''
              ? null
              : kind.value === 'minors'
                ? { kind: 'minors', count: Number(count.value) }
                : kind.value === 'range'
                  ? { kind: 'range', range: range.value.trim() }
                  : { kind: 'pattern', pattern: pattern.value.trim() },
        }),
      });

  return h('div.grid2.settings', about, aliasForm, trustForm, scheduleForm, ruleForm, webhookPanel({ path, copy, lib, reload }));
}

/** Version rules and push webhooks are Git's: websites, llms.txt, archives and OpenAPI uploads have neither. */
function isGitLibrary(lib) {
  return !['openapi', 'website', 'llmstxt', 'archive'].includes(lib.source);
}

function wholeHours(value) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 8760) throw new Error('Hours between refreshes must be a whole number from 1 to 8760.');
  return n;
}

/** The push webhook: create (or replace) shows the secret once; remove stops deliveries. */
function webhookPanel({ path, copy, lib, reload }) {
  if (!isGitLibrary(lib)) return null;
  const errors = h('div');
  const out = h('div', { 'aria-live': 'polite' });
  const create = h('button', { type: 'button' }, lib.webhook?.configured ? 'Replace the webhook' : 'Create a webhook');
  create.addEventListener('click', async () => {
    const done = await busy(
      create,
      async () => {
        const made = await post(`${path}/webhook`, {}, { query: copy });
        const url = `${location.origin}${made.path}`;
        mount(
          out,
          h(
            'div.alert.ok',
            h('p', 'Add a push webhook at your Git host with this URL and secret (content type application/json). The secret is shown only now.'),
          ),
          codeBlock(url, '', { label: 'webhook URL' }),
          codeBlock(made.secret, '', { label: 'webhook secret' }),
        );
        return true;
      },
      { errorSlot: errors },
    );
    if (!done) return;
    create.textContent = 'Replace the webhook';
    remove.hidden = false;
  });
  const remove = h('button.danger', { type: 'button', hidden: !lib.webhook?.configured }, 'Remove');
  remove.addEventListener('click', async () => {
    const ok = await confirmDialog({
      title: 'Remove the webhook?',
      message: 'Pushes no longer trigger refreshes; deliveries signed with its secret are refused.',
      confirmLabel: 'Remove webhook',
      danger: true,
    });
    if (!ok) return;
    await busy(
      remove,
      async () => {
        await del(`${path}/webhook`, { query: copy });
        flash('ok', 'The webhook was removed.');
        await reload();
      },
      { errorSlot: errors },
    );
  });
  return h(
    'section.panel',
    { 'aria-labelledby': 'set-webhook' },
    h('h2', { id: 'set-webhook' }, 'Push webhook'),
    h(
      'p.small.muted',
      lib.webhook?.configured
        ? 'A webhook is set up: a push to the tracked branch refreshes the library.'
        : 'Let your Git host tell Shelfmark about pushes, so the library refreshes at once.',
    ),
    errors,
    h('div.actions', create, remove),
    out,
  );
}

/** The version rule in words (the library page shows it too). */
export function ruleText(rule) {
  if (!rule) return 'none: tags are indexed only when listed or asked for';
  if (rule.kind === 'minors') return `the latest patch of each of the last ${rule.count} minor lines`;
  if (rule.kind === 'range') return `tags in the range ${rule.range}`;
  return `tags matching ${rule.pattern}`;
}
