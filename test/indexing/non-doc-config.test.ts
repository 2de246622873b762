/**
 * The default exclusions of non-doc pages and the duplicate-page detection, switched off in
 * a repository's shelfmark.json, through the whole Git build on the local Git server: the
 * same tree built with and without the switches.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, type GitServer } from '../git-server';
import { adminKey } from '../helpers';

let git: GitServer;
let app: TestApp;
let key: string;

const CHAPTER =
  'This chapter walks through building a small command line tool that reads a configuration file, validates every field, and reports each problem with the line it came from. It then shows how to package the tool, publish it, and keep its configuration format stable across releases so that older files keep working.\n';

const TREE = {
  'README.md': '# Toolkit\n\nA toolkit for command line programs: argument parsing, configuration files and packaging.\n',
  'src/SUMMARY.md': '# Summary\n\n- [Building a tool](./tool.md)\n- [Packaging and publishing the finished tool for others](./tool.md)\n',
  'src/tool.md': `# Building a tool\n\n${CHAPTER}`,
  'print/tool.md': `# Building a tool\n\n${CHAPTER}`,
  'docs/moved.md': '---\nredirect_to: /tool\n---\n',
  'TODO.md': '# TODO\n\n- Write the chapter about plugins and the one about testing command line tools.\n',
  'book.toml': '[book]\ntitle = "Toolkit"\n',
};

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/defaults', [{ files: TREE }]);
  createRepo(git.root, 'acme/switched', [
    {
      files: {
        ...TREE,
        'shelfmark.json': JSON.stringify({ defaultExclusions: { navigation: false, maintainerNotes: false, redirectStubs: false }, duplicatePages: false }),
      },
    },
  ]);
  app = await createTestApp({ GITHUB_BASE_URL: git.url, GIT_ALLOWED_URL_PREFIXES: `${git.url}/` });
  key = await adminKey(app);
});

test.after.always(async () => {
  await app?.close();
  await git?.close();
});

async function build(name: string): Promise<{ paths: string[]; log: string[] }> {
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/${name}` });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  const lib = await app.services.libraries.get(`/${name}`, { fresh: true });
  const latest = lib?.versions.find((v) => v.version === 'latest');
  const snippets = await app.services.snippets.read({
    libraryId: `/${name}`,
    version: 'latest',
    generation: latest?.generation ?? 0,
    baseGeneration: latest?.baseGeneration,
  });
  const jobs = await app.services.jobs.list({ libraryId: `/${name}`, limit: 1 });
  return { paths: [...new Set(snippets.map((s) => s.path))].sort(), log: jobs[0].log.map((l) => l.message) };
}

test('by default navigation, notes, redirect stubs and the print copy are left out', async (t) => {
  const { paths, log } = await build('acme/defaults');
  t.deepEqual(paths, ['README.md', 'src/tool.md']);
  t.true(log.includes('skipped print/tool.md: a copy of src/tool.md'), log.join('\n'));
  t.true(
    log.some((m) => m.startsWith('skipped docs/moved.md: ')),
    log.join('\n'),
  );
});

test("shelfmark.json switches keep them: navigation, maintainers' notes, stubs and every copy", async (t) => {
  const { paths, log } = await build('acme/switched');
  t.true(paths.includes('src/SUMMARY.md'), paths.join(', '));
  t.true(paths.includes('TODO.md'));
  // Both pages are parsed; their identical snippets are then deduplicated like any others.
  t.true(paths.includes('print/tool.md') || paths.includes('src/tool.md'));
  t.false(
    log.some((m) => m.includes('a copy of')),
    log.join('\n'),
  );
  t.false(
    log.some((m) => m.startsWith('skipped docs/moved.md')),
    log.join('\n'),
  );
});
