import test from 'ava';
import { excludedFileReason, maintainersPageReason, nonDocKind } from './defaults';

test("maintainersPageReason: folders of maintainers' pages, at any depth and in any case", (t) => {
  for (const dir of ['wiki', 'wikis', 'internal', 'Internals', 'sandbox', 'sandboxes', 'design-docs', 'design_docs', 'dev-docs', 'rfcs', 'adr', 'ADRs']) {
    t.is(maintainersPageReason(`docs/${dir}/page.md`), `in ${dir}/ (maintainers' pages)`, dir);
    t.is(maintainersPageReason(`${dir}/deep/er/page.md`), `in ${dir}/ (maintainers' pages)`, `${dir} at the root`);
  }
});

test('maintainersPageReason: release items, task lists and guides for maintainers by their names', (t) => {
  for (const name of [
    'release-items.md',
    'release_checklist.md',
    'release-procedure.rst',
    'Release-Steps.md',
    'management-tasks.md',
    'maintainers-guide.md',
    'maintainer_guide.md',
    'maintaining.md',
    'triage.md',
    'governance.md',
    'design-notes.md',
    'design_note.md',
  ]) {
    t.is(maintainersPageReason(`docs/${name}`), "maintainers' notes", name);
    t.is(maintainersPageReason(name), "maintainers' notes", `${name} at the root`);
  }
});

test("maintainersPageReason: a project template's README, not the package's own", (t) => {
  for (const path of ['packages/create-vite/template-react/README.md', 'templates/basic/readme.md', 'starters/blog/README.mdx', 'boilerplate/README.md']) {
    t.is(maintainersPageReason(path), "a project template's README (maintainers' pages)", path);
  }
  t.is(maintainersPageReason('packages/create-vite/README.md'), undefined);
  t.is(maintainersPageReason('templates/basic/usage.md'), undefined, 'other pages of a template');
});

test('maintainersPageReason: pages that only sound alike are pages', (t) => {
  for (const path of [
    'docs/guide.md',
    'docs/api/internal.md',
    'docs/internal-api.md',
    'docs/wiki-links.md',
    'docs/community/release-process.rst',
    'docs/releases.md',
    'docs/release-notes.md',
    'docs/templates.md',
    'docs/templating/README.md',
    'docs/sandboxing/README.md',
  ]) {
    t.is(maintainersPageReason(path), undefined, path);
  }
  // At the root a release process is a maintainers' note (the older file rule).
  t.is(excludedFileReason('release-process.md', true), "maintainers' notes");
  t.is(excludedFileReason('release-process.md', false), undefined);
});

test("nonDocKind: every maintainers' reason is switched by maintainerNotes; fixed reasons by none", (t) => {
  t.is(nonDocKind("maintainers' notes"), 'maintainerNotes');
  t.is(nonDocKind("in wiki/ (maintainers' pages)"), 'maintainerNotes');
  t.is(nonDocKind("a project template's README (maintainers' pages)"), 'maintainerNotes');
  t.is(nonDocKind('navigation file'), 'navigation');
  t.is(nonDocKind('changelog'), 'releaseNotes');
  t.is(nonDocKind('in unreleased/ (changelog fragments)'), 'releaseNotes');
  t.is(nonDocKind('licence'), undefined);
  t.is(nonDocKind('in node_modules/ (excluded by default)'), undefined);
});
