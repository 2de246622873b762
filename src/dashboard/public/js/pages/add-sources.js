// The add page's forms for docs that are not in Git: a website (crawl options), an llms.txt,
// and an uploaded archive of built docs. Each follows its job like the repository form.
import { h, mount, field, checkbox } from '../dom.js';
import { post, request } from '../api.js';
import { busy } from '../ui.js';
import { isAdmin } from '../session.js';

const MAX_ARCHIVE_BYTES = 50 * 1024 * 1024;

/** Lines of a textarea as a list (blank lines dropped). */
const lines = (textarea) =>
  textarea.value
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** "Name: value" lines as a headers object; a line without a colon is an error. */
function headersOf(textarea) {
  const out = {};
  for (const line of lines(textarea)) {
    const at = line.indexOf(':');
    if (at <= 0) throw new Error(`"${line}" is not "Name: value".`);
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

export function websiteForm(signal, follow) {
  const url = h('input', { type: 'url', name: 'url', required: true, placeholder: 'https://docs.example.com/guide/', spellcheck: 'false' });
  const scope = h('select', { name: 'scope' }, [
    h('option', { value: 'subpages', selected: true }, 'This page and the pages under its path'),
    h('option', { value: 'hostname' }, 'The whole site (same host name)'),
    h('option', { value: 'page' }, 'This page only'),
  ]);
  const maxPages = h('input', { type: 'number', name: 'maxPages', min: 1, max: 5000, value: 200 });
  const maxDepth = h('input', { type: 'number', name: 'maxDepth', min: 0, max: 20, value: 5 });
  const include = h('textarea', { name: 'include', rows: 2, spellcheck: 'false', placeholder: '/docs/**' });
  const exclude = h('textarea', { name: 'exclude', rows: 2, spellcheck: 'false', placeholder: '/blog/**' });
  const headers = h('textarea', { name: 'headers', rows: 2, spellcheck: 'false', autocomplete: 'off', placeholder: 'Cookie: session=…' });
  const isPrivate = checkbox(
    'Private website library (your team only)',
    { name: 'private' },
    'Needs a plan with private libraries and the team owner or admin role.',
  );
  const result = h('div');
  const submit = h('button', { type: 'submit' }, 'Crawl website');
  const form = h(
    'form.panel',
    { 'aria-labelledby': 'add-website-title' },
    h('h2', { id: 'add-website-title' }, 'Website'),
    field('Start URL', url, 'Sitemaps, links and robots.txt are followed; Markdown versions of pages are preferred when the site offers them.'),
    field('Scope', scope),
    field('Most pages', maxPages),
    field('Most link depth', maxDepth),
    field('Only URLs matching (one glob a line, optional)', include),
    field('Never URLs matching (one glob a line, optional)', exclude),
    field('Request headers (optional, "Name: value" a line)', headers, 'For a site behind a login. Kept encrypted; never shown again or logged.'),
    isPrivate,
    h('div.actions', submit),
    result,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    let sent;
    try {
      sent = headersOf(headers);
    } catch (error) {
      mount(result, h('div.alert.error', { role: 'alert' }, `Request headers: ${error.message}`));
      return;
    }
    const body = {
      url: url.value.trim(),
      scope: scope.value,
      maxPages: Number(maxPages.value),
      maxDepth: Number(maxDepth.value),
      include: lines(include),
      exclude: lines(exclude),
    };
    if (Object.keys(sent).length) body.headers = sent;
    if (isPrivate.querySelector('input').checked) body.private = true;
    await busy(submit, () => follow(result, () => post('/add/website', body, { signal }), signal, { kind: 'add-website' }), { label: 'Crawling…' });
    headers.value = '';
  });
  return form;
}

export function llmsTxtForm(signal, follow) {
  const url = h('input', { type: 'url', name: 'url', required: true, placeholder: 'https://docs.example.com/llms.txt', spellcheck: 'false' });
  const isPrivate = checkbox('Private llms.txt library (your team only)', { name: 'private' });
  const result = h('div');
  const submit = h('button', { type: 'submit' }, 'Add llms.txt');
  const form = h(
    'form.panel',
    { 'aria-labelledby': 'add-llmstxt-title' },
    h('h2', { id: 'add-llmstxt-title' }, 'llms.txt'),
    field('llms.txt or llms-full.txt URL', url, 'An llms.txt index is followed to the pages it lists; an llms-full.txt is split like Markdown.'),
    isPrivate,
    h('div.actions', submit),
    result,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { url: url.value.trim() };
    if (isPrivate.querySelector('input').checked) body.private = true;
    await busy(submit, () => follow(result, () => post('/add/llmstxt', body, { signal }), signal, { kind: 'add-llmstxt' }), { label: 'Adding…' });
  });
  return form;
}

/**
 * A multipart upload form (an archive of built docs, an OpenAPI document): the file, a
 * title, a description, "replace", and — for admins — "public"; the size is checked before
 * anything is sent, then the add is followed like the others.
 */
export function uploadForm(signal, follow, o) {
  const file = h('input', { type: 'file', name: o.fileField, required: true, accept: o.accept });
  const title = h('input', { type: 'text', name: 'libraryTitle', maxlength: 200 });
  const description = h('textarea', { name: 'description', maxlength: 2000, rows: o.descriptionRows });
  const force = checkbox(o.forceLabel, { name: 'force' });
  // A team's upload is private to the team; only admins may publish one to every caller.
  const publish = isAdmin() ? checkbox(o.publicLabel, { name: 'public' }) : null;
  const result = h('div');
  const submit = h('button', { type: 'submit' }, o.submitLabel);
  const form = h(
    'form.panel',
    { 'aria-labelledby': `${o.id}-title`, enctype: 'multipart/form-data' },
    h('h2', { id: `${o.id}-title` }, o.heading),
    field(o.fileLabel, file, o.fileHint),
    field(o.titleLabel, title, o.titleHint),
    field(o.descriptionLabel, description),
    force,
    publish,
    h('div.actions', submit),
    result,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) return;
    if (chosen.size > o.maxBytes) {
      mount(result, h('div.alert.error', { role: 'alert' }, `The file is larger than ${o.maxBytes / (1024 * 1024)} MB.`));
      return;
    }
    const data = new FormData();
    data.append(o.fileField, chosen, chosen.name);
    if (title.value.trim()) data.append('libraryTitle', title.value.trim());
    if (description.value.trim()) data.append('description', description.value.trim());
    data.append('force', force.querySelector('input').checked ? 'true' : 'false');
    if (publish) data.append('public', publish.querySelector('input').checked ? 'true' : 'false');
    await busy(submit, () => follow(result, () => request('POST', o.path, { form: data, signal }), signal, { kind: o.kind, uploadKind: o.uploadKind }), {
      label: 'Uploading…',
    });
  });
  return form;
}

export function archiveForm(signal, follow) {
  return uploadForm(signal, follow, {
    id: 'add-archive',
    heading: 'Archive of built docs',
    path: '/add/archive',
    kind: 'add-archive',
    fileField: 'archiveFile',
    accept: '.zip,.tgz,.tar.gz,application/zip,application/gzip',
    maxBytes: MAX_ARCHIVE_BYTES,
    fileLabel: 'Archive',
    fileHint: 'A zip or tar.gz of a static site or a Markdown folder, at most 50 MB. Links, paths outside the archive and device files are refused.',
    titleLabel: 'Title of the library',
    titleHint: 'Builds keep it; it also names the id, /archives/<title in lowercase with dashes>. Defaults to the file name.',
    descriptionLabel: 'About the uploaded docs',
    descriptionRows: 2,
    forceLabel: 'Replace an existing archive library with the same id',
    publicLabel: 'Public archive: every caller can query it (otherwise private to your team)',
    submitLabel: 'Upload archive',
  });
}
