/**
 * The `shelfmark` command end to end: the real binary (bin/shelfmark.mjs, spawned from
 * another directory) against a real server process (test/server-process.ts) on its own
 * stores, with a local Git server to add repositories from. Checks outputs, --json and the
 * documented exit codes.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import test from 'ava';
import { ROOT_DIR } from '../../src/config';
import { createTestApp, type TestApp } from '../harness';
import { createRepo, startGitServer, type GitServer } from '../git-server';
import { startServerProcess, type ServerProcess } from '../server-process';
import { ADMIN_ID, ADMIN_PASSWORD, adminKey } from '../auth/fixtures';
import { memberKey } from '../helpers';
import { hostOf } from '../../src/cli/commands/add';

const BIN = path.join(ROOT_DIR, 'bin', 'shelfmark.mjs');
const GUIDE =
  '# Widgets guide\n\n## Deleting a widget\n\nUse `w.destroy()` to free its resources when it is no longer needed.\n\n```js\nw.destroy();\nconsole.log(w.destroyed); // true\n```\n\n## Creating a widget\n\nCall `createWidget()` with a name:\n\n```js\nconst w = createWidget("spinner", { size: 3 });\n```\n';

let app: TestApp;
let git: GitServer;
let server: ServerProcess;
let key: string;
let adminName: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-cli-'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: '/',
        env: { PATH: process.env.PATH, SHELFMARK_API_URL: server?.url, SHELFMARK_API_KEY: key, ...env } as NodeJS.ProcessEnv,
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'buffer',
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: stdout.toString('latin1'), stderr: stderr.toString() }),
    );
  });
}

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/widgets', [{ files: { 'README.md': '# Widgets\n\nA widget toolkit for the web.\n', 'docs/guide.md': GUIDE }, tag: 'v1.0.0' }]);
  app = await createTestApp({ WORKER_MODE: 'off' });
  key = await adminKey(app);
  adminName = (await app.services.users.require(ADMIN_ID)).username;
  server = await startServerProcess({
    MONGODB_DB: app.services.config.mongodbDb,
    SHELFMARK_INDEX_PREFIX: app.services.config.indexPrefix,
    SHELFMARK_SECRET: app.services.config.secret,
    GITHUB_BASE_URL: git.url,
    GIT_ALLOWED_URL_PREFIXES: `${git.url}/`,
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
    LOG_LEVEL: 'warn',
  });
});

test.after.always(async () => {
  await server?.kill();
  await app?.close();
  await git?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test.serial("help: the command list, each command's --help, and exit 2 for a wrong command line", async (t) => {
  const help = await cli(['--help']);
  t.is(help.code, 0);
  for (const name of ['add', 'search', 'context', 'jobs', 'refresh', 'export', 'import', 'keys', 'mcp']) t.regex(help.stdout, new RegExp(`\\n  ${name} `));
  t.regex(help.stdout, /Exit codes: 0 ok, 1 server error/);
  for (const name of ['add', 'search', 'context', 'jobs', 'refresh', 'export', 'import', 'keys']) {
    const own = await cli([name, '--help']);
    t.is(own.code, 0, name);
    t.regex(own.stdout, new RegExp(`Usage:[\\s\\S]*shelfmark ${name}`), name);
  }
  t.is((await cli(['frobnicate'])).code, 2);
  t.is((await cli(['context', '/acme/widgets'])).code, 2, 'missing argument');
  t.is((await cli(['context', '/acme/widgets', 'q', '--tokens', 'many'])).code, 2);
  t.is((await cli(['search', 'x', '--bogus'])).code, 2);
  t.is((await cli(['add', 'ftp', 'x'])).code, 2);
});

test.serial('add repo, search, context, jobs and refresh against the server', async (t) => {
  t.is(hostOf('https://github.com/koajs/koa'), 'github');
  t.is(hostOf('https://gitlab.example/x/y'), 'git');
  const added = await cli(['add', 'repo', `${git.url}/acme/widgets`, '--host', 'github', '--json']);
  t.is(added.code, 0, added.stderr);
  t.is(JSON.parse(added.stdout).libraryName, '/acme/widgets');

  const found = await cli(['search', 'widgets', '--json']);
  t.is(found.code, 0, found.stderr);
  t.true(JSON.parse(found.stdout).results.some((r: { id: string }) => r.id === '/acme/widgets'));
  const human = await cli(['search', 'widgets']);
  t.regex(human.stdout, /^id\s+snippets/);
  t.regex(human.stdout, /\/acme\/widgets/);
  t.is((await cli(['search', 'zzzqqqnothing'])).code, 4);

  const docs = await cli(['context', '/acme/widgets', 'how do I delete a widget', '--tokens', '2000']);
  t.is(docs.code, 0, docs.stderr);
  t.regex(docs.stdout, /w\.destroy\(\)/);
  const json = await cli(['context', '/acme/widgets', 'delete a widget', '--json']);
  t.true(JSON.parse(json.stdout).snippets.length > 0);
  const missing = await cli(['context', '/acme/nothing', 'x', '--json']);
  t.is(missing.code, 4);
  t.is(JSON.parse(missing.stdout).error, 'library_not_found');
  t.is((await cli(['context', '/acme/widgets/v9.9', 'x'])).code, 4, 'tag_not_found');

  const jobs = await cli(['jobs', '--json']);
  t.is(jobs.code, 0, jobs.stderr);
  const job = JSON.parse(jobs.stdout).jobs.find((j: { libraryId: string }) => j.libraryId === '/acme/widgets');
  t.is(job.state, 'finalized');
  const watched = await cli(['jobs', job.id, '--watch', '--interval', '1']);
  t.is(watched.code, 0, watched.stderr);
  t.regex(watched.stdout, /finalized/);
  t.is((await cli(['jobs', 'job_missing'])).code, 4);

  const refreshed = await cli(['refresh', '/acme/widgets', '--json']);
  t.is(refreshed.code, 0, refreshed.stderr);
  t.is(JSON.parse(refreshed.stdout).libraryName, '/acme/widgets');
});

test.serial('export and import: a verified bundle file, an import that changes nothing, refusals with their exit codes', async (t) => {
  const file = path.join(tmp, 'widgets.shelfmark.gz');
  const exported = await cli(['export', '/acme/widgets', '-o', file]);
  t.is(exported.code, 0, exported.stderr);
  t.regex(exported.stderr, /Exported \/acme\/widgets \(latest\): \d+ snippets/);
  const header = JSON.parse(gunzipSync(fs.readFileSync(file)).toString().split('\n')[0]);
  t.is(header.format, 'shelfmark-bundle');
  t.deepEqual(
    fs.readdirSync(tmp).filter((n) => n.endsWith('.part')),
    [],
    'no temporary file left',
  );

  // To stdout (a pipe): the same bundle but for its creation time.
  const piped = await cli(['export', '/acme/widgets']);
  t.is(piped.code, 0, piped.stderr);
  const lines = (gz: Buffer) => gunzipSync(gz).toString().split('\n').slice(1, -2);
  t.deepEqual(lines(Buffer.from(piped.stdout, 'latin1')), lines(fs.readFileSync(file)));

  const again = await cli(['import', file, '--json']);
  t.is(again.code, 0, again.stderr);
  t.is(JSON.parse(again.stdout).status, 'unchanged');

  const tampered = path.join(tmp, 'tampered.shelfmark.gz');
  fs.writeFileSync(tampered, gzipSync(Buffer.from(gunzipSync(fs.readFileSync(file)).toString().replace('destroy', 'explode'))));
  const refused = await cli(['import', tampered]);
  t.is(refused.code, 5);
  t.regex(refused.stderr, /checksum/);

  const member = await memberKey(app);
  const forbidden = await cli(['import', file], { SHELFMARK_API_KEY: member.key });
  t.is(forbidden.code, 3);
  t.is((await cli(['import', path.join(tmp, 'missing.gz')])).code, 2);
  t.is((await cli(['export', '/acme/nothing', '-o', path.join(tmp, 'x.gz')])).code, 4);
  t.false(fs.existsSync(path.join(tmp, 'x.gz')));
});

test.serial('add openapi uploads a specification file', async (t) => {
  const spec = path.join(tmp, 'pets.yaml');
  fs.writeFileSync(
    spec,
    [
      'openapi: 3.0.3',
      'info: { title: Pet Store, version: 1.2.0, description: Pets as a service. }',
      'paths:',
      '  /pets/{id}:',
      '    delete:',
      '      summary: Delete a pet',
      '      description: Removes the pet with this id for good.',
      '      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]',
      "      responses: { '204': { description: Deleted } }",
      '',
    ].join('\n'),
  );
  const added = await cli(['add', 'openapi', spec, '--title', 'Pet Store', '--json']);
  t.is(added.code, 0, added.stderr);
  t.is(JSON.parse(added.stdout).libraryName, '/openapi/pet-store');
  const docs = await cli(['context', '/openapi/pet-store', 'delete a pet']);
  t.regex(docs.stdout, /Delete a pet/);
  const again = await cli(['add', 'openapi', spec, '--title', 'Pet Store']);
  t.is(again.code, 6, 'a duplicate without --force is a conflict');
  t.is((await cli(['add', 'openapi', path.join(tmp, 'none.yaml')])).code, 2);
});

test.serial("add website: a site that cannot be read exits 5 with the server's reason; an unreachable server exits 1", async (t) => {
  // The server has the website source: a name that does not resolve leaves nothing to read,
  // a 400 naming url (the CLI's own explanation of a 404 stays for servers without it).
  const website = await cli(['add', 'website', 'https://docs.example.test/', '--scope', 'subpages', '--max-pages', '5']);
  t.is(website.code, 5, website.stderr);
  t.regex(website.stderr, /url: no page of https:\/\/docs\.example\.test\/ could be read/);
  const down = await cli(['search', 'widgets'], { SHELFMARK_API_URL: 'http://127.0.0.1:9' });
  t.is(down.code, 1);
  t.regex(down.stderr, /Could not reach the Shelfmark server at http:\/\/127\.0\.0\.1:9/);
});

test.serial('keys: create, list and delete with a signed-in user; without credentials exit 3', async (t) => {
  const env = { SHELFMARK_USERNAME: adminName, SHELFMARK_PASSWORD: ADMIN_PASSWORD };
  const created = await cli(['keys', 'create', 'from the cli', '--json'], env);
  t.is(created.code, 0, created.stderr);
  const made = JSON.parse(created.stdout);
  t.regex(made.value, /^smk_/);
  const works = await cli(['jobs', '--json'], { SHELFMARK_API_KEY: made.value });
  t.is(works.code, 0, 'the new key works');
  const listed = await cli(['keys', 'list', '--json'], env);
  t.true(JSON.parse(listed.stdout).keys.some((k: { id: string; value?: string }) => k.id === made.id && k.value === undefined));
  const deleted = await cli(['keys', 'delete', made.id], env);
  t.is(deleted.code, 0, deleted.stderr);
  t.is((await cli(['jobs'], { SHELFMARK_API_KEY: made.value })).code, 3, 'the deleted key is refused');
  t.is((await cli(['keys', 'list'])).code, 3);
  t.is((await cli(['keys', 'list'], { SHELFMARK_USERNAME: adminName, SHELFMARK_PASSWORD: 'wrong password' })).code, 3);
});

test.serial('project: create from a lockfile, show what it pins and what no library matches, use it with context, delete', async (t) => {
  const lockfile = path.join(ROOT_DIR, 'test', 'fixtures', 'lockfiles', 'koa-app', 'package-lock.json');
  const made = await cli(['project', 'create', lockfile, '--name', 'orders-api', '--json']);
  t.is(made.code, 0, made.stderr);
  const project = JSON.parse(made.stdout);
  t.regex(project.id, /^prj_[a-z0-9]{16}$/);
  t.deepEqual(project.unmatched.map((u: { name: string }) => u.name).sort(), ['@koa/router', 'koa'], 'the catalogue here holds neither');
  const shown = await cli(['project', 'show', project.id]);
  t.is(shown.code, 0, shown.stderr);
  t.regex(shown.stdout, /2 package\(s\) no library matches; to add one: POST \/v2\/add\/repo\/github/);
  t.regex((await cli(['project', 'list'])).stdout, new RegExp(project.id));
  const docs = await cli(['context', '/acme/widgets', 'how do I delete a widget', '--project', project.id]);
  t.is(docs.code, 0, docs.stderr);
  t.regex(docs.stdout.split('\n')[0] ?? '', /no version asked \(default\)/, 'a library the project does not pin: the default version');
  t.is((await cli(['project', 'create'])).code, 2);
  t.is((await cli(['project', 'delete', project.id])).code, 0);
  t.is((await cli(['project', 'show', project.id])).code, 4);
});
