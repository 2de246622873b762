/**
 * Library bundles end to end on two installations with separate stores (each test app has
 * its own MongoDB database and Elasticsearch index prefix on the shared local servers):
 * export from one, import into the other, and every way a bad bundle is refused without
 * leaving anything behind.
 */
import test from 'ava';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { ROOT_DIR } from '../../src/config';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, memberKey, seedLibrary, servedSnippets, servedSnippetsWithVectors, testLibrary } from '../helpers';
import { finishSnippets } from '../../src/indexing/snippets/finish';
import { parseDocument } from '../../src/indexing/parsers';
import { publishGeneration } from '../../src/indexing/pipeline/publish';

const LIB = '/acme/cookies';
const PAGES = {
  'docs/cookies.md':
    '# Cookies\n\n## Setting a cookie\n\nSet a signed cookie with options:\n\n```js\nctx.cookies.set("name", "tobi", { signed: true });\n```\n\n## Reading a cookie\n\nRead it back:\n\n```js\nconst v = ctx.cookies.get("name", { signed: true });\n```\n',
  'docs/sessions.md': '# Sessions\n\nSessions keep state between requests in a signed cookie.\n\n```js\napp.use(session({ maxAge: 86400000 }, app));\n```\n',
};

let source: TestApp;
let target: TestApp;
let sourceKey: string;
let targetKey: string;
let bundle: Buffer;

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

function binary(res: import('supertest').Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

async function exportFrom(app: TestApp, key: string, path: string): Promise<{ status: number; body: Buffer; type: string }> {
  const res = await app.request.get(path).set(bearer(key)).buffer(true).parse(binary);
  return { status: res.status, body: res.body as Buffer, type: res.headers['content-type'] ?? '' };
}

function importInto(app: TestApp, key: string, body: Buffer, query = '') {
  return app.request.post(`/v2/libraries/import${query}`).set(bearer(key)).set('Content-Type', 'application/gzip').send(body);
}

async function snippetCount(app: TestApp, libraryId: string): Promise<number> {
  await app.handles.es.indices.refresh({ index: app.services.snippets.alias });
  const res = await app.handles.es.count({ index: app.services.snippets.alias, query: { term: { libraryId } } });
  return res.count;
}

/** Rewrites a bundle's uncompressed lines (to forge a tampered or future bundle). */
function edit(gz: Buffer, change: (lines: string[]) => string[]): Buffer {
  const lines = gunzipSync(gz).toString('utf8').split('\n');
  return gzipSync(Buffer.from(change(lines).join('\n')));
}

async function context(app: TestApp, query: string) {
  const res = await app.request.get('/v2/context').query({ libraryId: LIB, query, type: 'json', tokens: 2000 });
  return {
    status: res.status,
    snippets: (res.body.snippets ?? []).map((s: { title: string; source: { path: string; url: string } }) => [s.title, s.source.path, s.source.url]),
  };
}

test.before(async () => {
  [source, target] = await Promise.all([createTestApp(), createTestApp()]);
  sourceKey = await adminKey(source);
  targetKey = await adminKey(target);
  await seedLibrary(source, LIB, PAGES);
  // A second version, so a bundle carries more than one.
  const parsed = Object.entries(PAGES).flatMap(([path, text]) => parseDocument({ path, text: text.replace('tobi', 'loki') }));
  const snippets = finishSnippets(parsed, {
    libraryId: LIB,
    version: '1.0.0',
    fileUrl: (p, l) => `https://example.test${LIB}/blob/v1/${p}#L${l}`,
    fileHashes: new Map(),
  });
  await publishGeneration(source.services.publishDeps(), {
    libraryId: LIB,
    version: '1.0.0',
    ref: 'v1.0.0',
    tags: ['v1.0.0'],
    commit: 'beef01',
    generation: Date.now() - 60_000,
    snippets,
    files: Object.keys(PAGES).map((p) => ({ p, h: 'v1' })),
    meta: {},
  });
  const exported = await exportFrom(source, sourceKey, `/v2/libraries${LIB}/export`);
  if (exported.status !== 200) throw new Error(`export failed: ${exported.status} ${exported.body.toString()}`);
  bundle = exported.body;
});

test.after.always(async () => {
  await Promise.all([source?.close(), target?.close()]);
});

test.serial('an exported bundle is gzip NDJSON: header, file lists, snippets as stored, and a checksum trailer', async (t) => {
  const lines = gunzipSync(bundle)
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  const [header, ...rest] = lines;
  t.is(header.format, 'shelfmark-bundle');
  t.is(header.formatVersion, 1);
  t.is(header.library.id, LIB);
  t.deepEqual(header.versions.map((v: { version: string }) => v.version).sort(), ['1.0.0', 'latest']);
  const trailer = rest.pop();
  t.is(trailer.type, 'end');
  t.regex(trailer.sha256, /^[0-9a-f]{64}$/);
  t.is(trailer.lines, lines.length - 1);
  const stored = await source.services.snippets.read({
    libraryId: LIB,
    version: 'latest',
    generation: header.versions.find((v: { version: string }) => v.version === 'latest').generation,
    baseGeneration: undefined,
  });
  const inBundle = rest.filter((l) => l.type === 'snippet' && l.doc.version === 'latest').map((l) => l.doc);
  t.is(inBundle.length, stored.length);
  t.deepEqual(
    inBundle.find((d) => d.id === stored[0].id),
    stored[0],
    'each document is exactly what Elasticsearch stores',
  );
  t.is(rest.filter((l) => l.type === 'files').length, 2);
});

test.serial('a bundle imported into another installation answers context exactly like the original, and importing it again is a no-op', async (t) => {
  const res = await importInto(target, targetKey, bundle);
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.body.status, 'imported');
  t.is(res.body.libraryName, LIB);
  for (const q of ['set a signed cookie', 'session maxAge']) {
    const [a, b] = await Promise.all([context(source, q), context(target, q)]);
    t.is(a.status, 200);
    t.true(a.snippets.length > 0);
    t.deepEqual(b, a, q);
  }
  const v1 = await target.request.get('/v2/context').query({ libraryId: `${LIB}/v1.0.0`, query: 'cookie', type: 'json' });
  t.is(v1.status, 200);
  t.true(JSON.stringify(v1.body).includes('loki'));
  const before = await target.services.libraries.get(LIB, { fresh: true });
  const count = await snippetCount(target, LIB);

  const again = await importInto(target, targetKey, bundle);
  t.is(again.status, 200);
  t.is(again.body.status, 'unchanged');
  const after = await target.services.libraries.get(LIB, { fresh: true });
  t.is(after?.rev, before?.rev, 'the library record was not written');
  t.is(await snippetCount(target, LIB), count);
  // The target's manifest came with the bundle, so a refresh there can reuse unchanged files.
  const manifest = await target.handles.models.Manifest.findById(`${LIB}@latest`).lean();
  t.deepEqual(manifest?.files.map((f) => f.p).sort(), Object.keys(PAGES).sort());
});

test.serial('a tampered bundle (edited and re-compressed) fails its checksum and leaves nothing behind', async (t) => {
  const tampered = edit(bundle, (lines) => lines.map((l) => l.replace('tobi', 'evil')));
  const fresh = await createTestApp();
  try {
    const key = await adminKey(fresh);
    const res = await importInto(fresh, key, tampered);
    t.is(res.status, 400);
    t.is(res.body.error, 'validation_error');
    t.regex(res.body.message, /checksum/);
    t.is(await fresh.services.libraries.get(LIB, { fresh: true }), null);
    t.is(await snippetCount(fresh, LIB), 0);
    t.is(await fresh.handles.models.Manifest.countDocuments({}), 0);
  } finally {
    await fresh.close();
  }
});

test.serial('a truncated bundle is refused as truncated and leaves nothing behind, even over an existing library', async (t) => {
  const fresh = await createTestApp();
  try {
    const key = await adminKey(fresh);
    for (const cut of [bundle.subarray(0, Math.floor(bundle.length * 0.6)), edit(bundle, (lines) => lines.slice(0, -2).concat(''))]) {
      const res = await importInto(fresh, key, cut);
      t.is(res.status, 400, JSON.stringify(res.body));
      t.is(res.body.error, 'validation_error');
      t.regex(res.body.message, /truncated/);
      t.is(await fresh.services.libraries.get(LIB, { fresh: true }), null);
      t.is(await snippetCount(fresh, LIB), 0);
    }
    // Over an older build that is being served: the old build stays, the partial one goes.
    await seedLibraryAt(fresh, 1);
    const servedBefore = await snippetCount(fresh, LIB);
    t.true(servedBefore > 0);
    const res = await importInto(fresh, key, bundle.subarray(0, Math.floor(bundle.length * 0.8)));
    t.is(res.status, 400);
    const kept = await fresh.services.libraries.get(LIB, { fresh: true });
    t.deepEqual(
      kept?.versions.map((v) => [v.version, v.generation]),
      [['latest', 1]],
    );
    const generations = await fresh.handles.es.search({
      index: fresh.services.snippets.alias,
      size: 0,
      query: { term: { libraryId: LIB } },
      aggs: { g: { terms: { field: 'generation' } } },
    });
    t.deepEqual(
      (generations.aggregations?.g as { buckets: { key: number }[] } | undefined)?.buckets.map((b) => b.key),
      [1],
    );
  } finally {
    await fresh.close();
  }
});

/** The library's latest version served at generation `generation`. */
async function seedLibraryAt(app: TestApp, generation: number): Promise<void> {
  await app.services.libraries.ensure(testLibrary(LIB, { title: 'cookies' }));
  const parsed = Object.entries(PAGES).flatMap(([path, text]) => parseDocument({ path, text }));
  const snippets = finishSnippets(parsed, { libraryId: LIB, version: 'latest', fileUrl: (p, l) => `https://example.test/${p}#L${l}`, fileHashes: new Map() });
  await publishGeneration(app.services.publishDeps(), {
    libraryId: LIB,
    version: 'latest',
    ref: 'main',
    tags: [],
    commit: 'old',
    generation,
    snippets,
    files: [],
    meta: {},
  });
}

test.serial('damaged gzip data, an unknown format version and a file that is not a bundle are refused with clear messages', async (t) => {
  const fresh = await createTestApp();
  try {
    const key = await adminKey(fresh);
    const damaged = Buffer.from(bundle);
    for (let i = 40; i < 80; i++) damaged[Math.floor(damaged.length / 2) + i] ^= 0xff;
    const bad = await importInto(fresh, key, damaged);
    t.is(bad.status, 400);
    t.regex(bad.body.message, /damaged|checksum|not JSON/);

    const future = edit(bundle, ([head, ...rest]) => [JSON.stringify({ ...JSON.parse(head), formatVersion: 99 }), ...rest]);
    const res = await importInto(fresh, key, future);
    t.is(res.status, 400);
    t.is(res.body.error, 'validation_error');
    t.regex(res.body.message, /format version 99 is not supported: this server reads version 1/);

    const notBundle = await importInto(fresh, key, gzipSync(Buffer.from('{"hello":"world"}\n')));
    t.is(notBundle.status, 400);
    t.regex(notBundle.body.message, /not a Shelfmark bundle/);
    const notGzip = await importInto(fresh, key, Buffer.from('plain text'));
    t.is(notGzip.status, 400);
    const json = await fresh.request.post('/v2/libraries/import').set(bearer(key)).send({ bundle: 'x' });
    t.is(json.status, 400);
    t.is(await fresh.services.libraries.get(LIB, { fresh: true }), null);
    t.is(await snippetCount(fresh, LIB), 0);
  } finally {
    await fresh.close();
  }
});

test.serial('a bundle older than the build a version serves is refused unless forced', async (t) => {
  const fresh = await createTestApp();
  try {
    const key = await adminKey(fresh);
    await seedLibrary(fresh, LIB, { 'docs/new.md': '# New\n\nA newer build about cookies, long enough to be worth a snippet.\n' }); // generation = now: newer than the bundle's
    const res = await importInto(fresh, key, bundle);
    t.is(res.status, 409);
    t.is(res.body.error, 'conflict');
    t.regex(res.body.message, /newer build.*force=true/);
    t.is(await snippetCount(fresh, LIB), (await fresh.services.libraries.get(LIB, { fresh: true }))?.versions[0].totalSnippets ?? -1);

    const forced = await importInto(fresh, key, bundle, '?force=true');
    t.is(forced.status, 200, JSON.stringify(forced.body));
    t.is(forced.body.status, 'imported');
    const [a, b] = await Promise.all([context(source, 'set a signed cookie'), context(fresh, 'set a signed cookie')]);
    t.deepEqual(b, a);
    t.false((await fresh.request.get('/v2/context').query({ libraryId: LIB, query: 'newer build' })).text.includes('A newer build'));
  } finally {
    await fresh.close();
  }
});

test.serial('import is for admins; export needs a caller who can see the library; a too-large bundle is 413', async (t) => {
  const member = await memberKey(target);
  const res = await importInto(target, member.key, bundle);
  t.is(res.status, 403);
  const anonymous = await target.request.post('/v2/libraries/import').set('Content-Type', 'application/gzip').send(bundle);
  t.is(anonymous.status, 401);
  const missing = await exportFrom(source, sourceKey, '/v2/libraries/acme/nothing/export');
  t.is(missing.status, 404);
  const oneVersion = await exportFrom(source, sourceKey, `/v2/libraries${LIB}/export?version=v1.0.0`);
  t.is(oneVersion.status, 200);
  const header = JSON.parse(gunzipSync(oneVersion.body).toString('utf8').split('\n')[0]);
  t.deepEqual(
    header.versions.map((v: { version: string }) => v.version),
    ['1.0.0'],
  );
  const unknownTag = await exportFrom(source, sourceKey, `/v2/libraries${LIB}/export?version=9.9`);
  t.is(unknownTag.status, 404);

  const small = await createTestApp({ BUNDLE_MAX_BYTES: '1024' });
  try {
    const key = await adminKey(small);
    const big = await importInto(small, key, bundle);
    t.is(big.status, 413);
    t.is(big.body.error, 'payload_too_large');
    t.is(await snippetCount(small, LIB), 0);
  } finally {
    await small.close();
  }
});

test.serial('the corpus loader (npm run load) imports bundle files, and a second run changes nothing', async (t) => {
  const { loadBundles, bundleFiles } = await import('../../scripts/eval/load-corpus');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-bundles-'));
  const fresh = await createTestApp();
  try {
    fs.writeFileSync(path.join(dir, 'acme__cookies.shelfmark.gz'), bundle);
    fs.writeFileSync(path.join(dir, 'broken.shelfmark.gz'), bundle.subarray(0, 100));
    const files = bundleFiles([dir]);
    t.is(files.length, 2);
    const first = await loadBundles(fresh.services, files, { quiet: true });
    t.deepEqual(
      first.map((s) => s.status),
      ['indexed', 'failed'],
    );
    t.regex(first[1].error ?? '', /truncated/);
    const second = await loadBundles(fresh.services, files.slice(0, 1), { quiet: true });
    t.deepEqual(
      second.map((s) => s.status),
      ['unchanged'],
    );
    const [a, b] = await Promise.all([context(source, 'session maxAge'), context(fresh, 'session maxAge')]);
    t.deepEqual(b, a);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await fresh.close();
  }
});

test.serial('`npm run load -- <folder>` loads the folder it names (not the default corpus) and shows progress without a terminal', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-load-'));
  // Run from a folder with no ../shared/corpus beside it: a loader that ignored its argument has nothing to fall back on.
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-cwd-'));
  const fresh = await createTestApp();
  try {
    fs.writeFileSync(path.join(dir, 'acme__cookies.shelfmark.gz'), bundle);
    const { config } = fresh.services;
    const run = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(ROOT_DIR, 'scripts', 'eval', 'load-corpus.ts'), dir], {
      cwd,
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        ELASTICSEARCH_URL: config.elasticsearchUrl,
        MONGODB_URI: config.mongodbUri,
        MONGODB_DB: config.mongodbDb,
        SHELFMARK_INDEX_PREFIX: config.indexPrefix,
        SHELFMARK_SECRET: config.secret,
        SHELFMARK_EMBEDDINGS: 'off',
        LOG_LEVEL: 'warn',
      },
    });
    t.is(run.status, 0, `${run.stdout}\n${run.stderr}`);
    t.regex(run.stdout, /1 libraries, \d+ snippets/);
    t.regex(run.stderr, /^\[load\] 1\/1 bundles, [\d.]+\/s, \d+ s: done$/m, 'a plain progress line, not an empty bar');
    t.true((await snippetCount(fresh, LIB)) > 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(cwd, { recursive: true, force: true });
    await fresh.close();
  }
});

/** Rewrites a bundle's lines and seals it again with a correct trailer (a bundle from another release). */
function reseal(gz: Buffer, change: (value: Record<string, unknown>, index: number) => Record<string, unknown>): Buffer {
  const lines = gunzipSync(gz).toString('utf8').trimEnd().split('\n');
  const body = lines
    .slice(0, -1)
    .map((l, i) => `${JSON.stringify(change(JSON.parse(l), i))}\n`)
    .join('');
  const trailer = { type: 'end', lines: lines.length - 1, sha256: crypto.createHash('sha256').update(body).digest('hex') };
  return gzipSync(Buffer.from(`${body}${JSON.stringify(trailer)}\n`));
}

test.serial('a bundle of another mapping version is analysed again, and fields this mapping lacks are left out', async (t) => {
  const other = reseal(bundle, (value, i) => {
    if (i === 0) return { ...value, mappingVersion: 99 };
    if (value.type !== 'snippet') return value;
    const doc = value.doc as Record<string, unknown>;
    return { ...value, doc: { ...doc, embedding: [0.1, 0.2, 0.3], searchTitle: 'stale analysis' } };
  });
  const fresh = await createTestApp();
  try {
    const key = await adminKey(fresh);
    const res = await importInto(fresh, key, other);
    t.is(res.status, 200, JSON.stringify(res.body));
    const docs = await servedSnippetsWithVectors(fresh, LIB);
    t.true(docs.length > 0);
    t.false(docs.some((d) => 'embedding' in d));
    t.false(docs.some((d) => d.searchTitle === 'stale analysis'));
    const [a, b] = await Promise.all([context(source, 'set a signed cookie'), context(fresh, 'set a signed cookie')]);
    t.deepEqual(b, a);
  } finally {
    await fresh.close();
  }
});

test.serial('vectors of another embedding model are not imported: an installation with embeddings makes its own', async (t) => {
  // The exporting side named another model, and its vectors even have another size: kept,
  // they would be refused by the mapping or, worse, compared with this model's queries.
  const foreign = reseal(bundle, (value, i) => {
    if (i === 0) return { ...value, embeddingModel: 'another-model-768' };
    if (value.type !== 'snippet') return value;
    return { ...value, doc: { ...(value.doc as Record<string, unknown>), embedding: [0.5, 0.5, 0.5] } };
  });
  for (const mode of ['off', 'on'] as const) {
    const fresh = await createTestApp({ SHELFMARK_EMBEDDINGS: mode });
    try {
      const res = await importInto(fresh, await adminKey(fresh), foreign);
      t.is(res.status, 200, JSON.stringify(res.body));
      const docs = await servedSnippetsWithVectors(fresh, LIB);
      t.true(docs.length > 0);
      if (mode === 'off')
        t.false(
          docs.some((d) => 'embedding' in d),
          'without a model, no vectors',
        );
      else
        t.true(
          docs.every((d) => Array.isArray(d.embedding) && d.embedding.length === 384),
          'this model embedded every snippet',
        );
    } finally {
      await fresh.close();
    }
  }
});

test.serial(
  'with embeddings on, a bundle carries every vector (restored from the cache: _source holds none) and an installation of the same model imports them',
  async (t) => {
    const [from, into] = await Promise.all([createTestApp({ SHELFMARK_EMBEDDINGS: 'on' }), createTestApp({ SHELFMARK_EMBEDDINGS: 'on' })]);
    try {
      const embeddings = from.services.embeddings;
      if (!embeddings) return t.fail('SHELFMARK_EMBEDDINGS=on loads the model');
      const parsed = Object.entries(PAGES).flatMap(([path, text]) => parseDocument({ path, text }));
      const finished = finishSnippets(parsed, {
        libraryId: LIB,
        version: 'latest',
        fileUrl: (p, l) => `https://example.test${LIB}/blob/main/${p}#L${l}`,
        fileHashes: new Map(),
      });
      await from.services.libraries.ensure(testLibrary(LIB, { title: 'cookies', repoUrl: `https://example.test${LIB}` }));
      await publishGeneration(from.services.publishDeps(), {
        libraryId: LIB,
        version: 'latest',
        ref: 'main',
        tags: [],
        commit: 'c0ffee',
        generation: Date.now(),
        snippets: await embeddings.attach(finished),
        files: Object.keys(PAGES).map((p) => ({ p, h: 'h' })),
        meta: { branch: 'main' },
      });
      const stored = await servedSnippets(from, LIB);
      t.false(
        stored.some((d) => 'embedding' in d),
        '_source holds no vectors',
      );
      const exported = await exportFrom(from, await adminKey(from), `/v2/libraries${LIB}/export`);
      t.is(exported.status, 200);
      const lines = gunzipSync(exported.body)
        .toString('utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      t.is(lines[0].embeddingModel, embeddings.modelId);
      const docs = lines.filter((l) => l.type === 'snippet').map((l) => l.doc);
      t.is(docs.length, stored.length);
      t.true(
        docs.every((d) => Array.isArray(d.embedding) && d.embedding.length === 384),
        'each document carries its vector',
      );

      const res = await importInto(into, await adminKey(into), exported.body);
      t.is(res.status, 200, JSON.stringify(res.body));
      // Ids are made again under the importing key (bundle-attacks.test.ts): match by place.
      const place = (d: { path: string; startLine: number; title: string }) => `${d.path}:${d.startLine}:${d.title}`;
      const indexed = new Map((await servedSnippetsWithVectors(into, LIB)).map((d) => [place(d), d.embedding]));
      t.is(indexed.size, docs.length);
      for (const d of docs) {
        const v = indexed.get(place(d));
        t.is(v?.length, 384, d.title);
        t.true(
          v!.every((x, i) => Math.abs(x - d.embedding[i]) < 1e-5),
          `${d.title}: the bundle's vector is the one indexed`,
        );
      }
    } finally {
      await Promise.all([from.close(), into.close()]);
    }
  },
);
