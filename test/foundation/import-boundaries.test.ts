/**
 * The layers of docs/ARCHITECTURE.md ("Layers"), checked on the real imports of src/ (the
 * TypeScript compiler's syntax tree, import-graph.ts): no file imports a higher layer, no
 * import cycle (src/ and the dashboard's modules), and no raw mongoose model call outside
 * the stores that own the collections. The model owners are listed; one that no longer calls
 * a model fails too, so the list only shrinks.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '../../src/config';
import { importCycles, importEdges, modelCalls, modelNames, sourceFiles, type ImportEdge } from './import-graph';

const SRC = path.join(ROOT_DIR, 'src');

/**
 * Lowest first. A file may import its own layer and the ones below, never one above. A path
 * of src/ belongs to the layer of its longest prefix listed here; a new folder needs its line.
 */
const LAYERS: ReadonlyArray<readonly [layer: string, paths: readonly string[]]> = [
  ['foundation', ['util/', 'net/', 'errors.ts', 'logger.ts', 'config.ts', 'entry-points.ts']],
  ['domain', ['domain/']],
  ['store (MongoDB)', ['store/']],
  ['search (Elasticsearch)', ['search/']],
  ['platform', ['auth/', 'embedding/', 'health/', 'error-funnel.ts']],
  ['indexing', ['indexing/']],
  ['use cases', ['ports.ts', 'catalog/', 'retrieval/', 'projects/', 'code/']],
  ['composition', ['services.ts']],
  ['adapters', ['http/', 'mcp/', 'dashboard/', 'cli/']],
  ['entry points', ['main.ts', 'cli.ts', 'indexing/jobs/job-process.ts']],
];

/** Outside store/, only these own a collection and call its model (auth's repositories). */
const MODEL_OWNERS = ['auth/credentials.ts', 'auth/keys.ts', 'auth/policies.ts', 'auth/sessions.ts', 'auth/settings.ts', 'auth/teams.ts', 'auth/users.ts'];

const files = sourceFiles(SRC, ['.ts', '.mjs'], ['public']);
const edges = importEdges(SRC, files);

function layerOf(file: string): number {
  let best = -1;
  let bestLength = 0;
  LAYERS.forEach(([, paths], rank) => {
    for (const p of paths) if (file.startsWith(p) && p.length > bestLength) [best, bestLength] = [rank, p.length];
  });
  return best;
}

const upward = (e: ImportEdge) => layerOf(e.to) > layerOf(e.from);
const show = (e: ImportEdge) => `${e.from} → ${e.to}${e.typeOnly ? ' (types)' : ''}`;

test('the scan sees the code (it would pass vacuously otherwise)', (t) => {
  t.true(files.length > 300, `${files.length} files`);
  t.true(edges.some((e) => e.from === 'http/app.ts' && e.to === 'error-funnel.ts'));
  t.true(
    edges.some((e) => e.from === 'catalog/access.ts' && e.to === 'ports.ts' && e.typeOnly),
    'type-only imports are seen and marked',
  );
  t.true(edges.some((e) => e.from === 'embedding/threaded.ts' && e.to === 'entry-points.ts' && !e.typeOnly));
});

test('every file of src/ has a layer', (t) => {
  t.deepEqual(
    files.map((f) => path.relative(SRC, f)).filter((f) => layerOf(f) < 0),
    [],
    'add its folder to LAYERS',
  );
});

test('no file imports a layer above its own (use cases take ports.ts, not the composition root)', (t) => {
  t.deepEqual(edges.filter(upward).map(show), []);
});

test('no import cycles in src/', (t) => {
  t.deepEqual(importCycles(edges), []);
});

test("no import cycles among the dashboard's browser modules", (t) => {
  const dir = path.join(SRC, 'dashboard', 'public');
  const browser = importEdges(dir, sourceFiles(dir, ['.js']), /\/vendor\//);
  t.true(browser.length > 50, `${browser.length} imports`);
  t.deepEqual(importCycles(browser), []);
});

test('the cycle finder finds a cycle (the test above could not fail otherwise)', (t) => {
  const e = (from: string, to: string): ImportEdge => ({ from, to, typeOnly: false });
  t.deepEqual(importCycles([e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd')]), [['a', 'b', 'c']]);
});

test("MCP does not import the HTTP layer, except its own HTTP route and that route's schema", (t) => {
  const adapter = new Set(['mcp/http-route.ts', 'mcp/http-schema.ts']);
  t.deepEqual(edges.filter((e) => e.from.startsWith('mcp/') && !adapter.has(e.from) && e.to.startsWith('http/')).map(show), []);
});

test('no raw mongoose model calls outside store/ and the auth repositories that own their collections', (t) => {
  const models = modelNames(sourceFiles(path.join(SRC, 'store'), ['.ts']));
  t.true(
    ['Manifest', 'User', 'Job', 'Library'].every((m) => models.has(m)),
    [...models].join(' '),
  );
  const calls = modelCalls(SRC, files, models);
  t.true(
    calls.some((c) => c.startsWith('store/')),
    "the scan sees the stores' own calls",
  );
  const outside = calls.filter((c) => !c.startsWith('store/') && !MODEL_OWNERS.some((owner) => c.startsWith(`${owner}:`)));
  t.deepEqual(outside, []);
  for (const owner of MODEL_OWNERS)
    t.true(
      calls.some((c) => c.startsWith(`${owner}:`)),
      `${owner} calls no model any more: remove it from MODEL_OWNERS`,
    );
});

test('the model-call scan sees calls through deps, this and services', (t) => {
  const file = path.join(ROOT_DIR, 'test', 'foundation', 'fixtures', 'model-calls.ts.txt');
  t.deepEqual(
    modelCalls(path.dirname(file), [file], new Set(['Manifest', 'User', 'Job'])).map((c) => c.split(' ')[1]),
    ['deps.Manifest.findById', 'this.User.find', 'services.models.Job.updateOne', 'Manifest.deleteMany'],
  );
});

test('only store/, the composition root and the auth composition import mongoose', (t) => {
  const importers = files.filter((f) => /from 'mongoose'/.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(SRC, f));
  t.deepEqual(importers.filter((f) => !f.startsWith('store/')).sort(), ['auth/compose.ts', 'services.ts']);
});
