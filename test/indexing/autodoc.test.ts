/**
 * Sphinx autodoc through the whole Git build, served by the local Git server: the API
 * entries come from the repository's own Python source at the built commit, stand where the
 * directives are, an unresolvable target is logged, and a changed docstring alone rebuilds
 * the page that documents it.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, commitToRepo, type GitServer } from '../git-server';
import { adminKey, servedSnippets } from '../helpers';

let git: GitServer;
let app: TestApp;
let key: string;

const APP_PY = (summary: string) =>
  [
    'class Tiny:',
    `    """${summary}"""`,
    '',
    '    def run(self, host: str = "127.0.0.1") -> None:',
    '        """Runs a development server on the given host."""',
    '',
    '    def _private(self):',
    '        """Not part of the API."""',
    '',
  ].join('\n');

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/tiny', [
    {
      files: {
        'README.md': '# Tiny\n\nA tiny web framework for small services.\n',
        'src/tiny/__init__.py': 'from .app import Tiny as Tiny\n',
        'src/tiny/app.py': APP_PY('The application object that holds routes.'),
        'docs/conf.py': 'project = "tiny"\n',
        'docs/api.rst': [
          'API',
          '===',
          '',
          '.. module:: tiny',
          '',
          'The central object is the application; everything else hangs off it.',
          '',
          '.. autoclass:: Tiny',
          '   :members:',
          '',
          '.. autofunction:: tiny.does_not_exist',
          '',
        ].join('\n'),
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

const latestSnippets = () => servedSnippets(app, '/acme/tiny');

test.serial('autoclass :members: becomes the class and its documented methods on the page; a missing target is logged', async (t) => {
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/tiny` });
  t.is(res.status, 200, JSON.stringify(res.body));
  const docs = await latestSnippets();
  // Read back in id order: the entries by title.
  const api = docs.filter((d) => d.kind === 'code' && d.path === 'docs/api.rst');
  t.deepEqual(api.map((d) => d.title).sort(), ['Tiny.run()', 'class Tiny'], JSON.stringify(docs.map((d) => [d.path, d.title])));
  const [cls, run] = ['class Tiny', 'Tiny.run()'].map((title) => api.find((d) => d.title === title)!);
  t.is(cls!.description, 'The application object that holds routes.');
  t.true(cls!.code.startsWith('class Tiny:'));
  t.is(run!.code, 'def run(self, host: str = "127.0.0.1") -> None:');
  t.deepEqual(
    api.map((d) => d.startLine),
    [8, 8],
    'both start at their autoclass directive (line 8 of the page), whose text they stand for',
  );
  t.false(docs.some((d) => d.code.includes('_private') || d.content.includes('shelfmark:api')));
  const jobs = await app.services.jobs.list({ libraryId: '/acme/tiny', limit: 1 });
  const log = jobs[0].log.map((l) => l.message);
  t.true(log.includes('include in docs/api.rst: unresolved: tiny.does_not_exist'), log.join('\n'));
});

test.serial('a changed docstring alone rebuilds the page whose autodoc shows it', async (t) => {
  commitToRepo(`${git.root}/acme/tiny.git`, { 'src/tiny/app.py': APP_PY('The application object, now with blueprints.') });
  const res = await app.request.post('/v2/refresh').set('authorization', `Bearer ${key}`).send({ libraryName: '/acme/tiny' });
  t.is(res.status, 200, JSON.stringify(res.body));
  const docs = await latestSnippets();
  t.true(docs.some((d) => d.path === 'docs/api.rst' && d.description === 'The application object, now with blueprints.'));
  t.false(docs.some((d) => d.description.includes('holds routes')));
});
