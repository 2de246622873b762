/**
 * Incremental publish (search/served.ts, pipeline/publish.ts) on the real Elasticsearch and
 * FerretDB: a refresh writes only the snippets of changed and added files and retires those
 * of changed and removed ones, readers see the old version completely until the one-update
 * switch and the new one completely after, and every way a build can end without switching
 * leaves the served version exactly as it was.
 */
import test from 'ava';
import { createRepo, commitToRepo, startGitServer, type GitServer } from '../git-server';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, servedSnippets, testLibrary } from '../helpers';
import { parseDocument } from '../../src/indexing/parsers';
import { finishSnippets } from '../../src/indexing/snippets/finish';
import { newGeneration, publishGeneration, type PublishDeps } from '../../src/indexing/pipeline/publish';
import type { SnippetDocument } from '../../src/search/types';
import type { LibraryVersionRecord } from '../../src/store/models/library';

let t0: TestApp;
let git: GitServer;
let key: string;

const page = (marker: string, i: number) =>
  `# Page ${i}\n\n## Widgets\n\nHow to build a ${marker} widget, step ${i}.\n\n\`\`\`js\nwidget.build('${marker}', ${i});\n\`\`\`\n`;

test.before(async () => {
  git = await startGitServer();
  t0 = await createTestApp({ GITHUB_BASE_URL: git.url, RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000', RATE_LIMIT_KEY_PER_MINUTE: '10000' });
  key = await adminKey(t0);
});
test.after.always(async () => {
  await t0?.close();
  await git?.close();
});

/** The finished snippets of some pages, as a build makes them. */
function snippetsOf(libraryId: string, pages: Record<string, string>): SnippetDocument[] {
  const parsed = Object.entries(pages).flatMap(([path, text]) => parseDocument({ path, text }));
  return finishSnippets(parsed, { libraryId, version: 'latest', fileUrl: (p, l) => `https://example.test/${p}#L${l}`, fileHashes: new Map() });
}

async function ensureLibrary(libraryId: string): Promise<void> {
  await t0.services.libraries.ensure(testLibrary(libraryId, { title: 'x', repoUrl: `https://example.test${libraryId}` }));
}

async function served(libraryId: string): Promise<LibraryVersionRecord> {
  const lib = await t0.services.libraries.get(libraryId, { fresh: true });
  const v = lib?.versions.find((x) => x.version === 'latest');
  if (!v) throw new Error(`${libraryId} serves nothing`);
  return v;
}

/** The ids a version serves at `record` (what every reader's filter selects). */
async function idsAt(libraryId: string, record: Pick<LibraryVersionRecord, 'generation' | 'baseGeneration'>): Promise<string[]> {
  const docs = await t0.services.snippets.read({ libraryId, version: 'latest', generation: record.generation, baseGeneration: record.baseGeneration });
  return docs.map((d) => d.id).sort();
}

/** Every stored document of a library, whatever its generation or mark. */
async function stored(libraryId: string): Promise<Array<{ id: string; generation: number; retired?: number | null }>> {
  const res = await t0.services.snippets.search<SnippetDocument>({ query: { term: { libraryId } }, size: 1000, _source: ['id', 'generation', 'retired'] });
  return res.hits.hits.flatMap((h) => (h._source ? [h._source] : []));
}

const ids = (docs: SnippetDocument[]) => docs.map((d) => d.id).sort();

/** A library served from a full build of pages a, b, c; returns its snippets. */
async function fullBuild(libraryId: string): Promise<{ pages: Record<string, string>; docs: SnippetDocument[] }> {
  await ensureLibrary(libraryId);
  const pages = { 'docs/a.md': page('alpha', 1), 'docs/b.md': page('beta', 2), 'docs/c.md': page('gamma', 3) };
  const docs = snippetsOf(libraryId, pages);
  await publishGeneration(t0.services.publishDeps(), {
    libraryId,
    version: 'latest',
    ref: 'main',
    tags: [],
    commit: 'c1',
    generation: newGeneration(),
    snippets: docs,
    files: Object.keys(pages).map((p) => ({ p, h: p })),
    meta: {},
  });
  return { pages, docs };
}

/** A refresh of it: b changed, c removed, d added (a kept). */
function refreshOf(libraryId: string, previous: LibraryVersionRecord) {
  const changed = { 'docs/b.md': page('beta-two', 2), 'docs/d.md': page('delta', 4) };
  const written = snippetsOf(libraryId, changed);
  return {
    written,
    input: {
      libraryId,
      version: 'latest',
      ref: 'main',
      tags: [],
      commit: 'c2',
      generation: newGeneration(previous.generation),
      snippets: written,
      amend: { served: previous, keep: ['docs/a.md'] },
      files: ['docs/a.md', 'docs/b.md', 'docs/d.md'].map((p) => ({ p, h: `${p}2` })),
      meta: {},
    },
  };
}

/** Publish deps whose switch first runs `before` (the moment between marking and switching). */
function withHook(before: () => Promise<void>, fail?: Error): PublishDeps {
  const deps = t0.services.publishDeps();
  const libraries = Object.create(deps.libraries) as typeof deps.libraries;
  libraries.publishVersions = async (...args) => {
    await before();
    if (fail) throw fail;
    return deps.libraries.publishVersions(...args);
  };
  return { ...deps, libraries };
}

test.serial('a refresh writes only changed and added files, and readers see the old version whole until the switch and the new one whole after', async (t) => {
  const lib = '/acme/incremental';
  const { docs } = await fullBuild(lib);
  const before = await served(lib);
  t.is(before.baseGeneration, before.generation, 'a full build serves from its own generation');
  const { written, input } = refreshOf(lib, before);
  const aDocs = docs.filter((d) => d.path === 'docs/a.md');
  const expectedAfter = [...ids(aDocs), ...ids(written)].sort();
  let seenBeforeSwitch: { old: string[]; next: string[]; api: number } | undefined;
  const deps = withHook(async () => {
    const res = await t0.request.get('/v2/context').query({ libraryId: lib, query: 'gamma widget', type: 'json' });
    seenBeforeSwitch = {
      old: await idsAt(lib, before),
      next: await idsAt(lib, { generation: input.generation, baseGeneration: before.baseGeneration }),
      api: res.status === 200 ? (res.body.snippets as unknown[]).length : 0,
    };
  });
  const result = await publishGeneration(deps, input);
  t.deepEqual(seenBeforeSwitch?.old, ids(docs), 'until the switch the old version is served completely');
  t.true((seenBeforeSwitch?.api ?? 0) > 0, 'the API still answers from the removed page before the switch');
  t.deepEqual(seenBeforeSwitch?.next, expectedAfter, 'the new generation is complete before it is switched in');
  const after = await served(lib);
  t.is(after.generation, input.generation);
  t.is(after.baseGeneration, before.generation, 'the base stays: kept snippets are not rewritten');
  t.deepEqual(await idsAt(lib, after), expectedAfter, 'after the switch the new version is served completely');
  t.is(result.written, written.length, 'only the snippets of changed and added files were written');
  t.is(result.retired, docs.length - aDocs.length, 'the snippets of changed and removed files were retired');
  t.is(after.totalSnippets, expectedAfter.length, 'totals count kept and written snippets');
  t.is(
    after.totalTokens,
    [...aDocs, ...written].reduce((n, d) => n + d.tokens, 0),
  );
  const gamma = await t0.request.get('/v2/context').query({ libraryId: lib, query: 'gamma widget', type: 'json' });
  t.false(JSON.stringify(gamma.body).includes("'gamma'"), 'the removed page is gone from answers');
  // The kept documents were never rewritten: still their first generation.
  const kept = (await stored(lib)).filter((d) => aDocs.some((a) => a.id === d.id));
  t.true(kept.every((d) => d.generation === before.generation && d.retired == null));
  // What was retired is deleted by the collection (delayed after a refresh's switch).
  t.true(
    (await stored(lib)).some((d) => d.retired != null),
    'retired documents wait for the delayed collection',
  );
  t.is(await t0.services.snippets.collect({ libraryId: lib, version: 'latest', served: after }), docs.length - aDocs.length);
  t.deepEqual((await stored(lib)).map((d) => d.id).sort(), expectedAfter);
});

test.serial('a refresh that fails after marking undoes its marks and its documents', async (t) => {
  const lib = '/acme/failing';
  const { docs } = await fullBuild(lib);
  const before = await served(lib);
  const { input } = refreshOf(lib, before);
  await t.throwsAsync(
    publishGeneration(
      withHook(async () => undefined, new Error('store went away')),
      input,
    ),
    { message: 'store went away' },
  );
  t.is((await served(lib)).generation, before.generation, 'nothing switched');
  t.deepEqual(await idsAt(lib, before), ids(docs), 'the served version is whole');
  const all = await stored(lib);
  t.is(all.length, docs.length, 'the failed build wrote nothing that stays');
  t.true(
    all.every((d) => d.retired == null),
    'no mark left behind',
  );
});

test.serial('a library deleted during a refresh: everything it wrote goes with it', async (t) => {
  const lib = '/acme/deleted';
  await fullBuild(lib);
  const { input } = refreshOf(lib, await served(lib));
  await t.throwsAsync(
    publishGeneration(
      withHook(async () => void (await t0.services.libraries.delete(lib))),
      input,
    ),
    { message: /deleted during indexing/ },
  );
  t.deepEqual(await stored(lib), []);
  t.is(await t0.services.manifests.get(lib, 'latest'), null, 'nor is a manifest left (it is written while the record switches)');
});

test.serial('two refreshes of one version: the one published second is refused (the stale-publish safety net) and undone, the first stays whole', async (t) => {
  const lib = '/acme/twice';
  const { docs } = await fullBuild(lib);
  const before = await served(lib);
  const first = refreshOf(lib, before);
  let second: ReturnType<typeof refreshOf> | undefined;
  // The first build marks, then (against the build slot) a second one runs and publishes before it switches.
  const deps = withHook(async () => {
    second = refreshOf(lib, before);
    second.input.generation = first.input.generation + 1;
    await publishGeneration(t0.services.publishDeps(), second.input);
  });
  await t.throwsAsync(publishGeneration(deps, first.input), { message: /newer build/ });
  const now = await served(lib);
  t.is(now.generation, second?.input.generation ?? -1);
  const aDocs = docs.filter((d) => d.path === 'docs/a.md');
  t.deepEqual(await idsAt(lib, now), [...ids(aDocs), ...ids(second?.written ?? [])].sort(), 'the published refresh is served whole');
  t.false(
    (await stored(lib)).some((d) => d.generation === first.input.generation),
    'the refused build left no documents',
  );
});

test.serial('marks a crashed build left behind are repaired by the next build before it reuses anything', async (t) => {
  const repo = 'acme/crashed';
  const lib = `/${repo}`;
  createRepo(git.root, repo, [
    { files: { 'README.md': '# Crashed\n\nDocs.\n', 'docs/a.md': page('alpha', 1), 'docs/b.md': page('beta', 2), 'docs/c.md': page('gamma', 3) } },
  ]);
  const auth = { authorization: `Bearer ${key}` };
  t.is(
    (
      await t0.request
        .post('/v2/add/repo/github')
        .set(auth)
        .send({ docsRepoUrl: `${git.url}/${repo}` })
    ).status,
    200,
  );
  const added = await served(lib);
  t.is(added.baseGeneration, added.generation, 'an add is a full build');
  const whole = await idsAt(lib, added);
  // A build that died after writing and marking, before its switch: its marks hide nothing yet…
  const crashed = newGeneration(added.generation);
  const ghost = snippetsOf(lib, { 'docs/ghost.md': page('ghost', 9) }).map((s) => ({ ...s, generation: crashed }));
  await t0.services.snippets.write(ghost);
  const marked = await t0.services.snippets.writeRetiring([], { libraryId: lib, version: 'latest', served: added, keep: ['README.md'] }, crashed);
  t.true(marked > 0);
  t.deepEqual(await idsAt(lib, added), whole, 'marks above the served generation do not change what is served');
  // …but a refresh that reused them unrepaired would lose the kept files. It repairs first.
  commitToRepo(`${git.root}/${repo}.git`, { 'docs/b.md': page('beta-two', 2) });
  t.is((await t0.request.post('/v2/refresh').set(auth).send({ libraryName: lib })).status, 200);
  const after = await served(lib);
  t.not(after.generation, added.generation);
  t.is(after.baseGeneration, added.generation, 'the refresh amended the served build');
  const now = await servedSnippets(t0, lib);
  t.false(
    now.some((d) => d.path === 'docs/ghost.md'),
    "the crashed build's documents are gone",
  );
  const wholePaths = [
    ...new Set(
      (await t0.services.snippets.read({ libraryId: lib, version: 'latest', generation: after.generation, baseGeneration: after.baseGeneration })).map(
        (d) => d.path,
      ),
    ),
  ].sort();
  t.deepEqual(
    wholePaths,
    ['docs/a.md', 'docs/b.md', 'docs/c.md'].filter((p) => wholePaths.includes(p) || p !== 'README.md'),
    'every page of the repository is served',
  );
  t.true(now.some((d) => d.code.includes('beta-two')) && !now.some((d) => d.code.includes("'beta'")), 'the changed file was rebuilt');
  t.is(after.totalSnippets, now.length);
  const [job] = await t0.services.jobs.list({ libraryId: lib, limit: 1 });
  const full = job ? await t0.services.jobs.get(job._id) : null;
  t.true(full?.log.some((l) => /cleaned up after an earlier build/.test(l.message)) ?? false, 'the repair is in the job log');
  t.true((full?.progress.snippetsIndexed ?? 99) < now.length, 'the refresh wrote fewer snippets than the library serves');
});
