/**
 * The vector cache in its own Elasticsearch index: hits and misses by (model, text hash),
 * batches larger than one `mget`, racing writes of the same key, cleanup by prefix, and the
 * embedding service embedding only what the cache lacks (a model change is a miss).
 */
import test from 'ava';
import { createEsClient, type EsClient } from '../../src/search/client';
import { VectorStore } from '../../src/search/vector-store';
import { vectorKey } from '../../src/embedding/vector-cache';
import { Embeddings } from '../../src/embedding/service';
import { defaultModelDir, loadEmbedder, missingModelFiles, type Embedder } from '../../src/embedding/embedder';
import type { SnippetDocument } from '../../src/search/types';
import { testSnippet } from '../search/store-fixture';
import { deleteIndices, testConfig } from '../harness';

let es: EsClient;
let store: VectorStore;
let prefix: string;
let embedder: Embedder;

const vector = (seed: number): Float32Array => Float32Array.from({ length: 384 }, (_, i) => Math.sin(seed * 1000 + i));

test.before(async () => {
  const config = testConfig();
  prefix = config.indexPrefix;
  es = createEsClient(config.elasticsearchUrl, 10_000);
  store = new VectorStore(es, prefix);
  await store.ensureIndex();
  const dir = process.env.SHELFMARK_EMBEDDING_MODEL_DIR ?? defaultModelDir();
  const missing = missingModelFiles(dir);
  if (missing.length > 0)
    throw new Error(`No embedding model at ${dir} (missing ${missing.join(', ')}): run node scripts/install/install-model.mjs (npm test does).`);
  embedder = await loadEmbedder(dir, { maxTokens: 64 });
});
test.after.always(async () => {
  await embedder?.close();
  if (es) await deleteIndices(es, prefix);
  await es?.close();
});

test.serial('ensureIndex is idempotent and the index lives under the prefix', async (t) => {
  await store.ensureIndex();
  await Promise.all([store.ensureIndex(), new VectorStore(es, prefix).ensureIndex()]);
  t.true(store.index.startsWith(`${prefix}-`));
  t.true(await es.indices.exists({ index: store.index }));
});

test.serial('a stored vector is a hit with the same floats; other texts and other models miss', async (t) => {
  const key = vectorKey('model-a', 'how to configure widgets');
  await store.put([{ key, vector: vector(1) }]);
  const found = await store.get([key, vectorKey('model-a', 'another text'), vectorKey('model-b', 'how to configure widgets'), key]);
  t.deepEqual([...found.keys()], [key]);
  t.deepEqual(Array.from(found.get(key) ?? []), Array.from(vector(1)));
});

test.serial('batches beyond one mget and one bulk request come back whole; a key written twice keeps one vector', async (t) => {
  const entries = Array.from({ length: 1234 }, (_, i) => ({ key: vectorKey('model-a', `text ${i}`), vector: vector(i) }));
  await Promise.all([store.put(entries), store.put(entries.slice(0, 600))]);
  const found = await store.get(entries.map((e) => e.key));
  t.is(found.size, entries.length);
  t.deepEqual(Array.from(found.get(entries[1000].key) ?? []), Array.from(vector(1000)));
  await es.indices.refresh({ index: store.index });
  t.is((await es.count({ index: store.index })).count, entries.length + 1);
});

test.serial('an empty lookup asks nothing', async (t) => {
  t.is((await store.get([])).size, 0);
});

const doc = (i: number, content: string, title = `T${i}`): SnippetDocument => testSnippet(i, { content, title });

/** The real model under another id, counting the texts it is asked to embed. */
function counting(inner: Embedder, modelId: string): Embedder & { texts: number } {
  const wrapped = {
    modelId,
    queryModelId: modelId,
    dims: inner.dims,
    maxTokens: inner.maxTokens,
    texts: 0,
    embed: async (texts: readonly string[]) => {
      wrapped.texts += texts.length;
      return inner.embed(texts);
    },
    embedQuery: (text: string) => inner.embedQuery(text),
    tokenize: (text: string) => inner.tokenize(text),
    close: async () => undefined,
  };
  return wrapped;
}

test.serial('the service embeds only what the cache lacks; a model change embeds everything again', async (t) => {
  const docs = [
    doc(1, 'Install the widget package with npm.'),
    doc(2, 'Configure the widget theme in settings.'),
    doc(3, 'Install the widget package with npm.', 'T1'),
  ];
  const first = counting(embedder, 'test-model@1:t64');
  const made = await new Embeddings(first, store).attach(docs);
  t.is(first.texts, 2, 'identical texts are embedded once');
  t.is(made[0].embedding?.length, 384);
  t.deepEqual(made[0].embedding, made[2].embedding);

  const again = counting(embedder, 'test-model@1:t64');
  const progress: Array<{ embedded: number; cached: number }> = [];
  const reused = await new Embeddings(again, store).attach([...docs, doc(4, 'A new page about widget events.')], (p) => void progress.push({ ...p }));
  t.is(again.texts, 1, 'only the new text is embedded');
  t.deepEqual(reused[1].embedding, made[1].embedding);
  t.is(progress[0].cached, 3);

  const other = counting(embedder, 'test-model@2:t64');
  await new Embeddings(other, store).attach(docs);
  t.is(other.texts, 2, 'another model id finds nothing cached');
});

test.serial('the test cleanup removes the vector index with the rest of the prefix', async (t) => {
  const extra = `${prefix}-cleanup`;
  const other = new VectorStore(es, extra);
  await other.ensureIndex();
  await deleteIndices(es, extra);
  t.false(await es.indices.exists({ index: other.index }));
});
