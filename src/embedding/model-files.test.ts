import test from 'ava';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readModelGraphs } from './model-files';

function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-model-files-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}
const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const manifest = (document: string, query: string) =>
  JSON.stringify({
    document: { file: 'document.onnx', sha256: sha(document), optimization: 'basic' },
    query: { file: 'query.onnx', sha256: sha(query), optimization: 'basic' },
  });

test('a folder without graphs.json serves model.onnx for both sides, optimised at load', (t) => {
  const dir = folder({ 'model.onnx': 'single' });
  const graphs = readModelGraphs(dir);
  t.is(graphs.document, graphs.query);
  t.is(graphs.document.file, path.join(dir, 'model.onnx'));
  t.is(graphs.document.optimization, 'all');
  t.is(graphs.document.hash, sha('single').slice(0, 12));
  t.is(graphs.problem, undefined);
});

test('graphs.json picks the document and query graphs when their hashes check out', (t) => {
  const dir = folder({ 'model.onnx': 'single', 'document.onnx': 'doc', 'query.onnx': 'query', 'graphs.json': manifest('doc', 'query') });
  const graphs = readModelGraphs(dir);
  t.is(graphs.document.file, path.join(dir, 'document.onnx'));
  t.is(graphs.query.file, path.join(dir, 'query.onnx'));
  t.is(graphs.query.optimization, 'basic');
  t.not(graphs.document.hash, graphs.query.hash);
  t.is(graphs.problem, undefined);
});

test('a derived graph that is missing or altered falls back to model.onnx and says why', (t) => {
  const altered = readModelGraphs(folder({ 'model.onnx': 'single', 'document.onnx': 'doc', 'query.onnx': 'changed', 'graphs.json': manifest('doc', 'query') }));
  t.is(altered.query, altered.document);
  t.true(altered.document.file.endsWith('model.onnx'));
  t.regex(altered.problem ?? '', /query\.onnx has sha256 \w+, expected/);
  const missing = readModelGraphs(folder({ 'model.onnx': 'single', 'document.onnx': 'doc', 'graphs.json': manifest('doc', 'query') }));
  t.regex(missing.problem ?? '', /query\.onnx is missing/);
  const broken = readModelGraphs(folder({ 'model.onnx': 'single', 'graphs.json': '{"document": {}}' }));
  t.regex(broken.problem ?? '', /lacks file, sha256 or optimization/);
});
