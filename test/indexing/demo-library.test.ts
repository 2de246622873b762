/**
 * First run and the shared fixtures: with an empty catalogue the server indexes its own
 * README and docs/ as /shelfmark/shelfmark (unless SHELFMARK_DEMO_LIBRARY=off, which the
 * test harness sets for every other test); fixtures/ loads with `npm run load` and serves
 * the test Git server.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey } from '../helpers';
import { ROOT_DIR } from '../../src/config';
import { DEMO_LIBRARY_ID, demoFiles, indexDemoLibrary } from '../../src/catalog/demo';
import { loadCorpus } from '../../scripts/eval/load-corpus';
import { FIXTURES_DIR, fixtureRepoVersions } from '../fixtures';
import { createRepo, startGitServer } from '../git-server';

let app: TestApp;
test.after.always(async () => {
  await app?.close();
});

test.serial('the test harness leaves the demo off', async (t) => {
  const off = await createTestApp();
  try {
    t.false(off.services.config.demoLibrary);
    t.deepEqual(await indexDemoLibrary(off.services, { root: ROOT_DIR }), { added: false, reason: 'disabled' });
    t.deepEqual(await off.services.libraries.list(), []);
  } finally {
    await off.close();
  }
});

test.serial("an empty catalogue gets Shelfmark's own docs, which answer at once; a second start adds nothing", async (t) => {
  app = await createTestApp({ SHELFMARK_DEMO_LIBRARY: 'on' });
  app.lifecycle.startWorker();
  const files = demoFiles(ROOT_DIR);
  t.true(files.includes('README.md') && files.includes('docs/ARCHITECTURE.md'), files.join(' '));
  const outcome = await indexDemoLibrary(app.services, { root: ROOT_DIR });
  t.deepEqual(outcome, { added: true, libraryName: DEMO_LIBRARY_ID });
  const key = await adminKey(app);
  const res = await app.request
    .get('/v2/context')
    .query({ libraryId: DEMO_LIBRARY_ID, query: 'SHELFMARK_DEMO_LIBRARY configuration', type: 'txt' })
    .set('authorization', `Bearer ${key}`);
  t.is(res.status, 200, res.text);
  t.regex(res.text, /SHELFMARK_DEMO_LIBRARY/);
  t.deepEqual(await indexDemoLibrary(app.services, { root: ROOT_DIR }), { added: false, reason: 'catalogue_not_empty' });
});

test.serial('fixtures/ loads as `npm run load -- fixtures` does, and serves the test Git server', async (t) => {
  const summary = await loadCorpus(app.services, FIXTURES_DIR, { quiet: true });
  t.deepEqual(
    summary.map((s) => [s.library, s.status]),
    [['/acme/widgets', 'indexed']],
  );
  const lib = await app.services.libraries.get('/acme/widgets', { fresh: true });
  t.deepEqual(
    lib?.versions
      .filter((v) => v.generation > 0)
      .map((v) => v.version)
      .sort(),
    ['latest', 'v1.0.0'],
  );

  const git = await startGitServer();
  try {
    const versions = fixtureRepoVersions('acme__widgets');
    t.deepEqual(
      versions.map((v) => v.tag),
      ['v1.0.0', 'v2.0.0'],
    );
    t.regex(String(versions[1].files['docs/guide.md']), /createWidget/);
    createRepo(git.root, 'acme/widgets', versions);
    t.truthy(git.url);
  } finally {
    await git.close();
  }
});
