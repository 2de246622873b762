/**
 * The served model (onnxruntime-node, JS tokenizer) against reference vectors computed
 * independently from the fp32 weights (scripts/install/embedding/reference.py: numpy forward pass,
 * Rust tokenizer). Documents go through the fp32 document graph and must stay faithful;
 * queries through the dynamic-int8 query graph, held to a looser bound (its effect on
 * retrieval was measured on the eval: docs/FIGURES.md, Embeddings). Needs the model
 * the install step fetches and derives (scripts/install/install-model.mjs, run by `npm test`).
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { cosine, defaultModelDir, loadEmbedder, missingModelFiles, type Embedder } from '../../src/embedding/embedder';

/** Lowest cosine of a query-graph vector to the reference (measured: 0.990 on the 80 dev questions). */
const QUERY_MIN_COSINE = 0.985;

interface Reference {
  entries: Array<{ text: string; ids: number[]; vector: number[] }>;
}
const reference = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'reference-vectors.json'), 'utf8')) as Reference;
const dir = process.env.SHELFMARK_EMBEDDING_MODEL_DIR ?? defaultModelDir();
let embedder: Embedder;

test.before(async () => {
  const missing = missingModelFiles(dir);
  if (missing.length > 0)
    throw new Error(`No embedding model at ${dir} (missing ${missing.join(', ')}): run node scripts/install/install-model.mjs (npm test does).`);
  embedder = await loadEmbedder(dir, { maxTokens: 256 });
});
test.after.always(async () => {
  await embedder?.close();
});

test("token ids equal the Rust tokenizer's", (t) => {
  for (const entry of reference.entries) t.deepEqual(embedder.tokenize(entry.text), entry.ids, entry.text);
});

test('vectors match the fp32 reference (cosine >= 0.999), one at a time and batched', async (t) => {
  const batched = await embedder.embed(reference.entries.map((e) => e.text));
  for (const [i, entry] of reference.entries.entries()) {
    const [single] = await embedder.embed([entry.text]);
    t.is(single.length, 384);
    t.true(cosine(single, entry.vector) >= 0.999, `${entry.text}: ${cosine(single, entry.vector)}`);
    t.true(cosine(batched[i], single) >= 0.9999, 'padding in a batch does not change a vector');
    t.true(Math.abs(Math.hypot(...single) - 1) < 1e-4, 'unit length');
  }
  // The fixed sentences differ: a wrong model or pooling that gave one vector would fail here.
  t.true(cosine(batched[0], batched[1]) < 0.8);
});

test('the default install serves queries from the derived int8 graph and documents from the fp32 one', (t) => {
  if (dir !== defaultModelDir()) return t.pass("an operator's own model folder");
  t.is(embedder.graphProblem, undefined);
  t.not(embedder.queryModelId, embedder.modelId, 'graphs.json is missing: node scripts/install/install-model.mjs says why the derivation failed');
});

test('query vectors stay close to the reference and to the document vector of the same text', async (t) => {
  const documents = await embedder.embed(reference.entries.map((e) => e.text));
  for (const [i, entry] of reference.entries.entries()) {
    const query = await embedder.embedQuery(entry.text);
    t.is(query.length, 384);
    t.true(cosine(query, entry.vector) >= QUERY_MIN_COSINE, `${entry.text}: ${cosine(query, entry.vector)}`);
    t.true(cosine(query, documents[i]) >= QUERY_MIN_COSINE, `${entry.text}: query vs document ${cosine(query, documents[i])}`);
    t.true(Math.abs(Math.hypot(...query) - 1) < 1e-4, 'unit length');
  }
});

test('long texts are cut to the input cap with [SEP] kept', (t) => {
  const ids = embedder.tokenize('word '.repeat(2000));
  t.is(ids.length, 256);
  t.is(ids[0], 101);
  t.is(ids[255], 102);
});
