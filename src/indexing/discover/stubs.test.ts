import test from 'ava';
import { redirectStubReason } from './stubs';
import { excludedDirReason, excludedFileReason } from './defaults';

test('redirect stubs: front matter, meta refresh, a short page saying the content moved', (t) => {
  t.is(redirectStubReason('---\nredirect_to: /guide/routing\n---\n'), 'redirect stub');
  t.is(redirectStubReason('---\ntitle: Old\nredirect: https://example.com/new\n---\n\n# Old\n'), 'redirect stub');
  t.is(redirectStubReason('<meta http-equiv="refresh" content="0; url=../new.html">'), 'redirect stub');
  t.is(redirectStubReason('# Installation\n\nThis page has moved to [the new guide](../guide/install.md).\n'), 'redirect stub');
  t.is(redirectStubReason('.. note::\n\n   The tutorial was moved to https://example.com/tutorial\n'), 'redirect stub');
});

test('pages that mention moving or redirects are not stubs', (t) => {
  t.is(redirectStubReason('---\ntitle: Routing\nredirect_from: /old-routing\n---\n\n# Routing\n\nRoutes map paths to handlers.\n'), undefined);
  const long = `# Redirects\n\nUse \`ctx.redirect(url)\` to redirect to another page. ${'The response status is 302 unless you set another one before calling it. '.repeat(8)}`;
  t.is(redirectStubReason(long), undefined);
  t.is(redirectStubReason('# Moving files\n\nCall `fs.rename` to move a file.\n'), undefined);
});

test('navigation files, maintainers notes, output listings and sample data are not documentation', (t) => {
  t.is(excludedFileReason('SUMMARY.md', false), 'navigation file');
  t.is(excludedFileReason('_sidebar.md', false), 'navigation file');
  t.is(excludedFileReason('summary.md', false), undefined, 'a page named summary');
  t.is(excludedFileReason('ADMIN_TASKS.md', true), "maintainers' notes");
  t.is(excludedFileReason('TODO.md', false), "maintainers' notes");
  t.is(excludedFileReason('todo.md', false), undefined, 'a tutorial about a todo app');
  t.is(excludedFileReason('RELEASING.md', true), "maintainers' notes");
  t.is(excludedFileReason('output.txt', false), 'output listing');
  t.is(excludedFileReason('build-output.txt', false), 'output listing');
  t.is(excludedDirReason(['benches', 'bench-data'], 1, 'md'), 'in bench-data/ (sample data)');
  t.is(excludedDirReason(['sample-data'], 0, 'txt'), 'in sample-data/ (sample data)');
});
