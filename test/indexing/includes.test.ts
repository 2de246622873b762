/**
 * Includes through the whole Git build: a book whose code lives in listing files, an
 * Antora module and a Sphinx page, served by the local Git server; the snippets hold the
 * code the reader sees, problems land in the job log, and a change to an included file
 * alone re-parses the page that includes it. A page another page includes whole is read
 * there, not as a page of its own.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { startGitServer, createRepo, commitToRepo, type GitServer } from '../git-server';
import { adminKey, codeBlocks, servedSnippets } from '../helpers';

let git: GitServer;
let app: TestApp;
let key: string;

const MAIN_RS = `use std::io;

// ANCHOR: guess
fn read_guess() -> String {
    let mut guess = String::new();
    io::stdin().read_line(&mut guess).expect("Failed to read line");
    guess
}
// ANCHOR_END: guess
`;

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/book', [
    {
      files: {
        'README.md':
          '# The Book\n\n<!-- teaser -->\nA book about guessing games: read a guess, compare it with a secret number and loop until the player wins.\n\n```sh\ncargo run --bin guess\n```\n',
        // MyST: the README's teaser, after a quoted marker.
        'docs/intro.md':
          "# Introduction\n\nWhat the book teaches, in the words of its README:\n\n```{include} ../README.md\n:start-after: '<!-- teaser -->'\n```\n",
        'src/ch02.md': [
          '# Guessing game',
          '',
          'Reading the guess from standard input:',
          '',
          '```rust',
          '{{#rustdoc_include ../listings/ch02/src/main.rs:guess}}',
          '```',
          '',
          'The manifest lists the crate and its version:',
          '',
          '```toml',
          '{{#include ../listings/ch02/Cargo.toml}}',
          '```',
          '',
          'A listing that was deleted:',
          '',
          '```rust',
          '{{#include ../listings/gone/src/main.rs}}',
          '```',
        ].join('\n'),
        'listings/ch02/src/main.rs': MAIN_RS,
        'listings/ch02/Cargo.toml': '[package]\nname = "guessing_game"\nversion = "0.1.0"\n',
        'docs/modules/ROOT/pages/client.adoc':
          '= Client\n\nCreate a client with the builder pattern and call it:\n\n[source,java]\n----\ninclude::example$Client.java[tag=build]\n----\n',
        'docs/modules/ROOT/examples/Client.java':
          'class Demo {\n  void run() {\n    // tag::build[]\n    Client client = Client.builder().retries(3).build();\n    // end::build[]\n  }\n}\n',
        'docs/conf.py': 'project = "book"\n',
        'docs/api.rst': 'Server\n======\n\nStart the server from a script like this one:\n\n.. literalinclude:: ../examples/serve.py\n   :pyobject: serve\n',
        'examples/serve.py': 'import book\n\ndef serve(port=8000):\n    book.Server(port).run_forever()\n',
      },
    },
  ]);
  createRepo(git.root, 'acme/site', [
    {
      files: {
        'README.md': '# Site\n\nA site about heroes.\n',
        'mkdocs.yml': 'site_name: Site\n',
        'docs/delete.md': [
          '# Delete heroes',
          '',
          'Review the code:',
          '',
          '```python',
          '{!./docs_src/delete/tutorial001.py[ln:1-2]!}',
          '```',
          '',
          '{!./docs_src/delete/annotations/en/tutorial001.md!}',
          '',
          '## Deleting in bulk',
          '',
          '{!./docs/shared-notes.md[ln:1-3]!}',
        ].join('\n'),
        'docs_src/delete/tutorial001.py': 'hero = session.get(Hero, 1)\nsession.delete(hero)\nsession.commit()\n',
        'docs_src/delete/annotations/en/tutorial001.md':
          '1. Select the hero we will delete with `session.get()`.\n\n2. Delete it, then commit the session so the row is removed from the database.\n',
        'docs/shared-notes.md':
          '# Shared notes\n\nDeleting many rows at once is faster with a delete statement.\n\n## Soft deletes\n\nMark rows as deleted with a flag column instead of removing them:\n\n    hero.deleted = True\n    session.add(hero)\n',
        // A Python project: its pages' unlabelled code that reads as Python is python.
        ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`site/m${i}.py`, `VALUE_${i} = ${i}\n`])),
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

const latestSnippets = () => servedSnippets(app, '/acme/book');

test.serial('snippets hold the included code; a missing target stays and is logged', async (t) => {
  const res = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/acme/book` });
  t.is(res.status, 200, JSON.stringify(res.body));
  const docs = await latestSnippets();
  const code = codeBlocks(docs);
  const guess = code.find((d) => d.path === 'src/ch02.md' && d.code.includes('read_line'));
  t.truthy(guess, JSON.stringify(code.map((c) => c.code)));
  t.false(guess?.code.includes('ANCHOR') ?? true);
  t.false(guess?.code.includes('use std::io') ?? true, 'only the anchored part');
  t.true(code.some((d) => d.language === 'toml' && d.code.includes('name = "guessing_game"')));
  t.true(code.some((d) => d.path === 'docs/modules/ROOT/pages/client.adoc' && d.code === 'Client client = Client.builder().retries(3).build();'));
  const serve = code.find((d) => d.path === 'docs/api.rst');
  t.is(serve?.language, 'python');
  t.is(serve?.code, 'def serve(port=8000):\n    book.Server(port).run_forever()');
  t.true(
    docs.some((d) => d.path === 'docs/intro.md' && d.content.includes('A book about guessing games: read a guess') && d.code === 'cargo run --bin guess'),
    JSON.stringify(docs.filter((d) => d.path === 'docs/intro.md')),
  );
  const jobs = await app.services.jobs.list({ libraryId: '/acme/book', limit: 1 });
  const log = jobs[0].log.map((l) => l.message);
  t.true(
    log.some((m) => m === 'include in src/ch02.md: missing: ../listings/gone/src/main.rs'),
    log.join('\n'),
  );
  t.true(
    log.some((m) => /^resolved 5 includes; 1 left as written$/.test(m)),
    log.join('\n'),
  );
});

test.serial('a change to an included file alone rebuilds the page that includes it', async (t) => {
  commitToRepo(`${git.root}/acme/book.git`, { 'listings/ch02/Cargo.toml': '[package]\nname = "guessing_game"\nversion = "0.2.0"\n' });
  const res = await app.request.post('/v2/refresh').set('authorization', `Bearer ${key}`).send({ libraryName: '/acme/book' });
  t.is(res.status, 200, JSON.stringify(res.body));
  const docs = await latestSnippets();
  t.true(docs.some((d) => d.code.includes('version = "0.2.0"')));
  t.false(docs.some((d) => d.code.includes('version = "0.1.0"')));
});

test.serial(
  'a page included whole is read where it is included, not as a page of its own; one included in part stays a page; unlabelled code of a Python project is python',
  async (t) => {
    const res = await app.request
      .post('/v2/add/repo/github')
      .set('authorization', `Bearer ${key}`)
      .send({ docsRepoUrl: `${git.url}/acme/site` });
    t.is(res.status, 200, JSON.stringify(res.body));
    const docs = await servedSnippets(app, '/acme/site');
    const paths = [...new Set(docs.map((d) => d.path))].sort();
    t.false(paths.includes('docs_src/delete/annotations/en/tutorial001.md'), paths.join(', '));
    t.true(paths.includes('docs/shared-notes.md'), 'included only in part (mdx_include [ln:1-3]): the rest of it is read on its own page');
    const page = docs.filter((d) => d.path === 'docs/delete.md');
    t.true(
      page.some((d) => `${d.content}\n${d.description}`.includes('commit the session so the row is removed')),
      JSON.stringify(page.map((d) => d.content)),
    );
    t.true(
      codeBlocks(page).some((c) => c.code === 'hero = session.get(Hero, 1)\nsession.delete(hero)'),
      'mdx_include [ln:1-2] splices those lines',
    );
    // Line numbers are the page's as written: the included section starts at its directive
    // (line 13), not three lines further down where the two includes above put it.
    const notes = page.find((d) => d.title === 'Shared notes');
    t.is(notes?.startLine, 13);
    t.true(notes?.url.endsWith('docs/delete.md#L13'), notes?.url);
    t.deepEqual(
      codeBlocks(docs.filter((d) => d.path === 'docs/shared-notes.md')),
      [{ path: 'docs/shared-notes.md', language: 'python', code: 'hero.deleted = True\nsession.add(hero)' }],
      'unlabelled code in a Python project',
    );
    const jobs = await app.services.jobs.list({ libraryId: '/acme/site', limit: 1 });
    const log = jobs[0].log.map((l) => l.message);
    t.true(
      log.some(
        (m) => m === '1 pages are included whole in other pages and read there, not as pages of their own: docs_src/delete/annotations/en/tutorial001.md',
      ),
      log.join('\n'),
    );
  },
);
