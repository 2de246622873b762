/**
 * The code tools under access control and across transports: a team's private library's
 * code answers its members (HTTP, MCP over /mcp and over stdio, the CLI) and is invisible to
 * another team, to a member without a team and to anonymous callers — the same 404 as a
 * library that does not exist, with nothing of the code in it. Each version reads its own
 * commit; deleting the library deletes its kept code.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createTestApp, type TestApp, listenApp } from '../harness';
import { createRepo, startGitServer, type GitServer } from '../git-server';
import { memberKey } from '../helpers';
import { libraryCodeDir } from '../../src/indexing/code-trees/kept-tree';
import { BIN, connectHttp, connectStdio, textOf } from '../mcp/fixture';

const run = promisify(execFile);

const ENGINE_V1 = `/** The engine. */
export class Engine {
  start(fuel: number): void {
    launchSecretEngine(fuel);
  }
}

export function launchSecretEngine(fuel: number): string {
  return 'ignition ' + fuel;
}
`;
const ENGINE_V2 = `${ENGINE_V1}
export function disposeEngine(engine: Engine): void {
  engine.start(0);
}
`;
const README = '# Secret engine\n\nInternal docs of the secret engine.\n\n## Start\n\n```ts\nnew Engine().start(3);\n```\n';
const PY = 'def refuel(engine, litres):\n    """Adds fuel."""\n    return litres\n';

let git: GitServer;
let app: TestApp;
let server: Awaited<ReturnType<typeof listenApp>> | undefined;
let url: string;
let teamA: { key: string; teamId?: string };
let teamB: { key: string; teamId?: string };
let loner: { key: string };

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'acme/secret-engine', [
    {
      files: { 'README.md': README, 'src/engine.ts': ENGINE_V1, 'tools/refuel.py': PY, 'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]) },
      tag: 'v1.0.0',
    },
    {
      files: { 'README.md': README, 'src/engine.ts': ENGINE_V2, 'tools/refuel.py': PY, 'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]) },
      tag: 'v2.0.0',
    },
  ]);
  app = await createTestApp({
    GITHUB_BASE_URL: git.url,
    GIT_ALLOWED_URL_PREFIXES: `${git.url}/`,
    RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000',
    RATE_LIMIT_KEY_PER_MINUTE: '100000',
    RATE_LIMIT_ANON_PER_MINUTE: '100000',
  });
  teamA = await memberKey(app, { teamPlan: 'pro' });
  teamB = await memberKey(app, { teamPlan: 'pro' });
  loner = await memberKey(app);
  for (const docsRepoUrl of [`${git.url}/acme/secret-engine`, `${git.url}/acme/secret-engine/tree/v1.0.0`]) {
    const res = await app.request.post('/v2/add/repo/github').set('authorization', `Bearer ${teamA.key}`).send({ docsRepoUrl, private: true });
    if (res.status !== 200) throw new Error(`adding ${docsRepoUrl}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  server = await listenApp(app);
  url = server.url;
});
test.after.always(async () => {
  await server?.close();
  await app?.close();
  await git?.close();
});

const code = (key: string | undefined, query: Record<string, string>) => {
  const req = app.request.get('/v2/code').query({ libraryId: '/acme/secret-engine', type: 'json', ...query });
  return key ? req.set('authorization', `Bearer ${key}`) : req;
};

test.serial("a team reads its private library's code, each version at its own commit", async (t) => {
  const latest = await code(teamA.key, { operation: 'search', query: 'disposeEngine' });
  t.is(latest.status, 200, JSON.stringify(latest.body));
  t.deepEqual(
    latest.body.matches.map((m: { path: string; line: number }) => `${m.path}:${m.line}`),
    ['src/engine.ts:12'],
  );
  const old = await code(teamA.key, { operation: 'search', query: 'disposeEngine', version: 'v1.0.0' });
  t.is(old.status, 200);
  t.deepEqual(old.body.matches, [], 'v1.0.0 has no disposeEngine');
  t.not(old.body.tree.commit, latest.body.tree.commit);
  t.is(old.body.tree.omitted.binary, 1, 'the PNG is left out');
  const range = await code(teamA.key, { operation: 'definition', query: 'launchSecretEngine', version: '^1' });
  t.is(range.body.provenance.resolution, 'range');
  t.deepEqual(
    range.body.symbols.map((s: { path: string; line: number; kind: string }) => [s.path, s.line, s.kind]),
    [['src/engine.ts', 8, 'function']],
  );
  const py = await code(teamA.key, { operation: 'outline', path: 'tools/refuel.py' });
  t.deepEqual(
    py.body.symbols.map((s: { name: string; kind: string }) => `${s.kind} ${s.name}`),
    ['function refuel'],
  );
});

test.serial('another team, a member without a team and anonymous callers get library_not_found, and nothing of the code', async (t) => {
  for (const key of [teamB.key, loner.key, undefined]) {
    for (const query of [
      { operation: 'search', query: 'launchSecretEngine' },
      { operation: 'read', path: 'src/engine.ts' },
      { operation: 'outline', path: 'src' },
    ] as Array<Record<string, string>>) {
      const res = await code(key, query);
      t.is(res.status, 404, `${key ? 'keyed' : 'anonymous'} ${query.operation}`);
      t.is(res.body.error, 'library_not_found');
      t.notRegex(JSON.stringify(res.body), /launchSecretEngine|ignition|engine\.ts/);
    }
  }
  const absent = await code(teamB.key, { libraryId: '/acme/never-added', operation: 'search', query: 'x' });
  t.is(
    absent.body.message.replace('/acme/never-added', 'ID'),
    (await code(teamB.key, { operation: 'search', query: 'x' })).body.message.replace('/acme/secret-engine', 'ID'),
    'hidden and absent read the same',
  );
});

test.serial('MCP over /mcp and over stdio: the same answer for the team, a tool error for another team', async (t) => {
  const args = { name: 'query-code', arguments: { libraryId: '/acme/secret-engine', operation: 'references', query: 'launchSecretEngine' } };
  const mine = await connectHttp(url, { SHELFMARK_API_KEY: teamA.key });
  const theirs = await connectHttp(url, { SHELFMARK_API_KEY: teamB.key });
  const stdio = await connectStdio(url, { apiKey: teamA.key });
  const stdioTheirs = await connectStdio(url, { apiKey: teamB.key });
  try {
    const answer = await mine.callTool(args);
    t.falsy(answer.isError, textOf(answer));
    t.regex(textOf(answer), /^Code: \/acme\/secret-engine v2\.0\.0 @ [0-9a-f]{12}/);
    t.regex(textOf(answer), /src\/engine\.ts\n\s+4: {5}launchSecretEngine\(fuel\);\n\s+8\* export function launchSecretEngine/);
    t.is(textOf(await stdio.client.callTool(args)), textOf(answer));
    for (const other of [await theirs.callTool(args), await stdioTheirs.client.callTool(args)]) {
      t.true(other.isError);
      t.regex(textOf(other), /does not exist or you have no access/);
      t.notRegex(textOf(other), /launchSecretEngine\(fuel\)/);
    }
    const read = await mine.callTool({
      name: 'query-code',
      arguments: { library_id: '/acme/secret-engine', operation: 'read', file: 'src/engine.ts', startLine: '8', endLine: '10' },
    });
    t.regex(textOf(read), /src\/engine\.ts lines 8-10 of \d+[^\n]*:\n\n {1}8\| export function launchSecretEngine/);
  } finally {
    await Promise.all([mine.close(), theirs.close(), stdio.client.close(), stdioTheirs.client.close()]);
  }
});

test.serial('the CLI reads the same code with the same key', async (t) => {
  const env = { ...process.env, SHELFMARK_API_URL: url, SHELFMARK_API_KEY: teamA.key };
  const { stdout } = await run(process.execPath, [BIN, 'code', '/acme/secret-engine', 'definition', 'Engine.start'], { env, cwd: '/' });
  t.regex(stdout, /definition of Engine\.start: 1 declaration[\s\S]*src\/engine\.ts:3-5 {2}method Engine\.start/);
  const denied = await run(process.execPath, [BIN, 'code', '/acme/secret-engine', 'search', 'ignition'], {
    env: { ...env, SHELFMARK_API_KEY: teamB.key },
    cwd: '/',
  }).catch((e: { code: number; stderr: string }) => e);
  t.is((denied as { code: number }).code, 4);
});

test.serial("the team's policy applies to code as to docs: a blocked library is 403 access_denied", async (t) => {
  const block = await app.request
    .patch('/v2/policies')
    .set('authorization', `Bearer ${teamA.key}`)
    .send({ libraryFilters: { blockedLibraries: ['/acme/secret-engine'] } });
  t.is(block.status, 200, JSON.stringify(block.body));
  const denied = await code(teamA.key, { operation: 'search', query: 'ignition' });
  t.is(denied.status, 403);
  t.is(denied.body.error, 'access_denied');
  await app.request
    .patch('/v2/policies')
    .set('authorization', `Bearer ${teamA.key}`)
    .send({ libraryFilters: { blockedLibraries: [] } });
  t.is((await code(teamA.key, { operation: 'search', query: 'ignition' })).status, 200);
});

test.serial('a version served without kept code (indexed before code was kept) gets it at its next refresh', async (t) => {
  const before = await code(teamA.key, { operation: 'search', query: 'ignition' });
  const key = (await app.services.libraries.resolve('/acme/secret-engine', [teamA.teamId ?? '']))?._id ?? '';
  fs.rmSync(path.join(libraryCodeDir(app.services.config.code.dir, key), before.body.tree.commit), { recursive: true });
  const missing = await code(teamA.key, { operation: 'search', query: 'ignition' });
  t.is(missing.status, 404);
  t.is(missing.body.error, 'not_found');
  t.regex(missing.body.message, /is not kept[\s\S]*Refresh the library/);
  const refresh = await app.request.post('/v2/refresh').set('authorization', `Bearer ${teamA.key}`).send({ libraryName: '/acme/secret-engine' });
  t.is(refresh.status, 200, JSON.stringify(refresh.body));
  const after = await code(teamA.key, { operation: 'search', query: 'ignition' });
  t.is(after.status, 200, JSON.stringify(after.body));
  t.is(after.body.tree.commit, before.body.tree.commit, 'the same commit, kept again (the commit had not moved)');
});

test.serial('deleting the library deletes its kept code', async (t) => {
  const dir = libraryCodeDir(app.services.config.code.dir, (await app.services.libraries.resolve('/acme/secret-engine', [teamA.teamId ?? '']))?._id ?? '');
  t.is(
    fs.readdirSync(dir).length,
    2,
    `one tree per version: ${fs.readdirSync(dir).join(', ')}; ${JSON.stringify((await app.services.libraries.get((await app.services.libraries.resolve('/acme/secret-engine', [teamA.teamId ?? '']))?._id ?? '', { fresh: true }))?.versions.map((v) => [v.version, v.commit, v.generation]))}`,
  );
  const del = await app.request.delete('/v2/libraries/acme/secret-engine').set('authorization', `Bearer ${teamA.key}`);
  t.is(del.status, 200, JSON.stringify(del.body));
  t.false(fs.existsSync(dir));
});
