// Add a library: a Git repository (every AddRepoRequest option), an OpenAPI file upload, a
// website, an llms.txt or an archive of built docs (add-sources.js).
// The add call answers when the build ends, so the page follows the new job meanwhile.
import { h, mount, field, checkbox } from '../dom.js';
import { get, post, del, ApiError } from '../api.js';
import { busy, every, page, errorBox, TERMINAL_JOB_STATES } from '../ui.js';
import { jobSummary, jobHref } from './jobs.js';
import { libraryHref } from './libraries.js';
import { findNewJob } from './jobs.js';
import { archiveForm, llmsTxtForm, uploadForm, websiteForm } from './add-sources.js';

/** The kinds of source, each with its form: [value, label, what it is]. */
const KINDS = [
  [
    'repo',
    'A Git repository',
    'Markdown, reStructuredText, notebooks and AsciiDoc in a repository on GitHub, GitLab, Bitbucket or an allowed Git server; refreshed from its branch.',
  ],
  ['openapi', 'An OpenAPI file', 'An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML): each operation becomes a snippet.'],
  ['website', 'A documentation website', 'A site crawled from a start URL (sitemaps, links, robots.txt), within limits you set.'],
  ['llmstxt', 'An llms.txt file', 'A site’s llms.txt (followed to the pages it lists) or llms-full.txt.'],
  ['archive', 'An archive of built docs', 'A zip or tar.gz of a static site or a Markdown folder, uploaded from your computer.'],
];

const HOSTS = [
  ['github', 'GitHub'],
  ['gitlab', 'GitLab'],
  ['bitbucket', 'Bitbucket'],
  ['git', 'Other Git server (allow-listed)'],
];

export async function renderAdd({ root, query, signal }) {
  // The hosts' base URLs (to tell the host from a pasted URL) and the allowed prefixes.
  const hosts = await get('/add/hosts', undefined, { signal }).catch((error) => {
    if (error?.name === 'AbortError') throw error;
    return { hosts: [], allowedPrefixes: [] };
  });
  const repo = repoForm(signal, hosts);
  // One form at a time: the kind of source decides which (and is kept in the URL).
  const forms = {
    repo: repo.form,
    openapi: openapiForm(signal),
    website: websiteForm(signal, submitAndFollow),
    llmstxt: llmsTxtForm(signal, submitAndFollow),
    archive: archiveForm(signal, submitAndFollow),
  };
  const kind = h(
    'select',
    { id: 'add-kind', name: 'kind' },
    KINDS.map(([v, label]) => h('option', { value: v }, label)),
  );
  kind.value = forms[query?.get('kind')] ? query.get('kind') : 'repo';
  const hint = h('p.small.muted', { id: 'add-kind-hint' });
  const show = () => {
    for (const [k, form] of Object.entries(forms)) form.hidden = k !== kind.value;
    hint.textContent = KINDS.find(([v]) => v === kind.value)?.[2] ?? '';
  };
  kind.addEventListener('change', () => {
    show();
    history.replaceState(null, '', `#/add${kind.value === 'repo' ? '' : `?kind=${kind.value}`}`);
  });
  show();
  mount(root, ...page('Add a library', h('div.panel.narrow-wide', field('What are the docs?', kind), hint), ...Object.values(forms)));
  // #/add?retry=<job id>: a failed add's request, put back in the form (its token typed again).
  const retryOf = query?.get('retry');
  if (retryOf) {
    const job = await get(`/jobs/${encodeURIComponent(retryOf)}`, undefined, { signal }).catch((error) => {
      if (error?.name === 'AbortError') throw error;
      return null;
    });
    if (job?.retryAdd) repo.prefill(job.retryAdd, { submit: false });
  }
}

/** The host a repository URL belongs to: a configured host's base URL, else "git" (allow-listed servers). */
export function detectHost(value, hosts) {
  let url;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  for (const { host, baseUrl } of hosts) {
    if (!baseUrl) continue;
    const base = new URL(baseUrl);
    const basePath = base.pathname.replace(/\/+$/, '');
    if (url.host.toLowerCase() === base.host.toLowerCase() && (basePath === '' || url.pathname === basePath || url.pathname.startsWith(`${basePath}/`)))
      return host;
  }
  return 'git';
}

/** Runs an add call and shows the job's live progress in `slot` until it answers. */
async function submitAndFollow(slot, call, signal, { kind, uploadKind, onRetry }) {
  const live = h('div', { 'aria-live': 'polite' });
  let job;
  let done;
  if (kind) {
    const { jobs: existing = [] } = await get('/jobs', { limit: 50 }, { signal }).catch(() => ({ jobs: [] }));
    const before = new Set(existing.map((j) => j.id));
    mount(slot, h('div.alert.info', 'Submitted. Waiting for the job to start…'), live);
    done = call();
    done.catch(() => undefined); // handled below; a rejection before then is not an unhandled one
    job = await findNewJob(undefined, before, done, signal, kind);
  } else {
    mount(slot, h('div.alert.info', 'Uploading and indexing…'), live);
    done = call();
    done.catch(() => undefined);
  }
  const watch = new AbortController();
  signal.addEventListener('abort', () => watch.abort());
  if (job) {
    mount(slot, h('p', 'Job ', h('a.mono', { href: jobHref(job.id) }, job.id), ` for ${job.libraryId}:`), live);
    every(
      1000,
      async () => {
        const fresh = await get(`/jobs/${encodeURIComponent(job.id)}`, undefined, { signal: watch.signal });
        mount(live, jobSummary(fresh));
        return !TERMINAL_JOB_STATES.includes(fresh.state);
      },
      watch.signal,
    );
  }
  try {
    const result = await done;
    watch.abort();
    // An OpenAPI upload is indexed within the call and recorded as an ended job: link it too.
    if (!job && uploadKind) {
      const { jobs = [] } = await get('/jobs', { libraryId: result.libraryName, limit: 5 }, { signal }).catch(() => ({ jobs: [] }));
      job = jobs.find((j) => j.kind === uploadKind);
      if (job) mount(slot, h('p', 'Job ', h('a.mono', { href: jobHref(job.id) }, job.id), ` for ${job.libraryId}:`), live);
    }
    if (job) mount(live, jobSummary(await get(`/jobs/${encodeURIComponent(job.id)}`, undefined, { signal })));
    else mount(slot);
    slot.prepend(h('div.alert.ok', { role: 'status' }, `${result.message} `, h('a', { href: libraryHref(result.libraryName) }, `Open ${result.libraryName}`)));
  } catch (error) {
    if (error?.name === 'AbortError') return;
    if (error instanceof ApiError && error.status === 504) {
      slot.prepend(
        h(
          'div.alert.warn',
          'Processing takes longer than the server waits for; the job carries on. ',
          job ? h('a', { href: jobHref(job.id) }, 'Follow the job.') : h('a', { href: '#/jobs' }, 'See the jobs.'),
        ),
      );
    } else {
      watch.abort();
      // The error is shown once: in the job's summary when the job says it, else on its own.
      const last = job ? await get(`/jobs/${encodeURIComponent(job.id)}`, undefined, { signal }).catch(() => null) : null;
      if (last?.error) {
        const remove = h('button.secondary', { type: 'button' }, 'Remove this failed job');
        remove.addEventListener('click', () =>
          busy(
            remove,
            async () => {
              await del(`/jobs/${encodeURIComponent(last.id)}`);
              mount(slot, h('div.alert.info', { role: 'status' }, 'The failed job was removed.'));
            },
            { errorSlot: live },
          ),
        );
        mount(slot, h('p', 'Job ', h('a.mono', { href: jobHref(last.id) }, last.id), ` for ${last.libraryId}:`), live);
        // A failed add left no library behind: trying again is the same add, made again.
        const again = onRetry && last.retryAdd ? h('button', { type: 'button', onclick: () => onRetry(last.retryAdd) }, 'Try again') : null;
        mount(live, jobSummary(last), h('div.actions', again, remove));
      } else {
        mount(slot);
        slot.prepend(errorBox(error));
      }
    }
  }
}

function repoForm(signal, { hosts = [], allowedPrefixes = [] } = {}) {
  const host = h(
    'select',
    { name: 'host' },
    HOSTS.map(([v, label]) => h('option', { value: v }, label)),
  );
  const url = h('input', { type: 'url', name: 'docsRepoUrl', required: true, placeholder: 'https://github.com/owner/repo', spellcheck: 'false' });
  const detected = h('p.hint', { role: 'status' });
  // The host follows the URL as it is typed or pasted, until the user picks one by hand.
  let chosenByHand = false;
  host.addEventListener('change', () => {
    chosenByHand = true;
  });
  url.addEventListener('input', () => {
    const found = detectHost(url.value, hosts);
    if (!found || chosenByHand) return;
    host.value = found;
    detected.textContent = `Host: ${host.selectedOptions[0]?.textContent ?? found} (from the URL).`;
  });
  const prefixes = h(
    'div.hint',
    allowedPrefixes.length
      ? [
          h('span', 'Other Git servers this instance may read from:'),
          h(
            'ul.small',
            allowedPrefixes.map((p) => h('li', h('code', p))),
          ),
        ]
      : h('span', 'GitHub, GitLab and Bitbucket as configured. Other Git servers need an entry in GIT_ALLOWED_URL_PREFIXES (none is set).'),
  );
  const isPrivate = checkbox('Private repository', { name: 'private' }, 'Needs a plan with private repositories and the team owner or admin role.');
  const token = h('input', { type: 'password', name: 'gitToken', autocomplete: 'off', spellcheck: 'false' });
  const tokenField = field('Access token (optional)', token, 'Leave empty to use your stored hosting-account connection (Credentials).');
  const skip = checkbox('Skip version filtering', { name: 'skipVersionFiltering' }, 'Keep pages that belong to other versions (versioned_docs/, docs/v1/…).');
  const generate = checkbox(
    'Generate docs from source code',
    { name: 'generateDocs' },
    'Builds snippets from exported functions, classes and types with their doc comments.',
  );
  const result = h('div');
  const submit = h('button', { type: 'submit' }, 'Add repository');
  const again = h('p.hint', { 'aria-live': 'polite' });
  const form = h(
    'form.panel',
    { 'aria-labelledby': 'add-repo-title' },
    h('h2', { id: 'add-repo-title' }, 'Git repository'),
    field('Repository URL', url, 'The docs are read from the default branch; versions listed in context7.json or shelfmark.json are built too.'),
    detected,
    field('Host', host),
    prefixes,
    isPrivate,
    tokenField,
    skip,
    generate,
    again,
    h('div.actions', submit),
    result,
  );
  /**
   * Puts a failed add's request back in the form. A token typed for it was not kept, so the
   * user is asked for it again; without one, `submit` sends the add straight away.
   */
  const prefill = (request, { submit: send }) => {
    url.value = request.docsRepoUrl;
    host.value = request.host;
    chosenByHand = true;
    isPrivate.querySelector('input').checked = request.private === true;
    skip.querySelector('input').checked = request.skipVersionFiltering === true;
    generate.querySelector('input').checked = request.generateDocs === true;
    token.value = '';
    if (request.tokenGiven) {
      token.required = true;
      again.textContent = 'The add is filled in as before. It used an access token, which is never kept: enter it again, then add.';
      token.focus();
    } else if (send) {
      form.requestSubmit();
    } else {
      again.textContent = 'The add is filled in as before: check it, then add.';
      submit.focus();
    }
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    token.required = false;
    again.textContent = '';
    const body = { docsRepoUrl: url.value.trim() };
    if (token.value) body.gitToken = token.value;
    if (isPrivate.querySelector('input').checked) body.private = true;
    if (skip.querySelector('input').checked) body.skipVersionFiltering = true;
    if (generate.querySelector('input').checked) body.generateDocs = true;
    await busy(
      submit,
      () =>
        submitAndFollow(result, () => post(`/add/repo/${encodeURIComponent(host.value)}`, body, { signal }), signal, {
          kind: 'add-repo',
          onRetry: (request) => prefill(request, { submit: true }),
        }),
      { label: 'Adding…' },
    );
    token.value = '';
  });
  return { form, prefill };
}

function openapiForm(signal) {
  return uploadForm(signal, submitAndFollow, {
    id: 'add-openapi',
    heading: 'OpenAPI specification',
    path: '/add/openapi-upload',
    kind: null,
    uploadKind: 'openapi', // indexed within the call: its job is recorded when it ends
    fileField: 'openapiFile',
    accept: '.json,.yaml,.yml,application/json,application/yaml,text/yaml',
    maxBytes: 10 * 1024 * 1024,
    fileLabel: 'Specification file',
    fileHint: 'OpenAPI 3.0/3.1 or Swagger 2.0, JSON or YAML, at most 10 MB.',
    titleLabel: 'Library title',
    titleHint: 'Defaults to the title in the specification.',
    descriptionLabel: 'Description',
    descriptionRows: 3,
    forceLabel: 'Replace an existing library with the same id',
    publicLabel: 'Public: every caller can query it (otherwise private to your team)',
    submitLabel: 'Upload specification',
  });
}
