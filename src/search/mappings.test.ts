import test from 'ava';
import { SNIPPET_FIELDS, SNIPPET_INDEX_SETTINGS, SNIPPET_MAPPINGS, pathWords, snippetIndexDefinition, toIndexedSnippet } from './mappings';
import { snippetDocument } from './test-fixtures';

test('every SnippetDocument field has a mapping and every mapping a field', (t) => {
  // The optional fields (page kind and version, section part) are written when a snippet has them.
  const doc = toIndexedSnippet(snippetDocument({ embedding: [0.6, 0.8], pageKind: 'migration', pageVersion: '3', part: 1 }));
  // `retired` is never written with a document: a later build sets it by a partial update.
  t.deepEqual([...Object.keys(doc), 'retired'].sort(), Object.keys(SNIPPET_FIELDS).sort());
  t.is(SNIPPET_MAPPINGS.dynamic, 'strict');
  t.is(SNIPPET_MAPPINGS.properties, SNIPPET_FIELDS);
});

test('filters are keywords, raw text is stored only, analysed fields use whitespace', (t) => {
  for (const field of ['id', 'libraryId', 'version', 'kind', 'path', 'language', 'fileHash'] as const) {
    t.deepEqual(SNIPPET_FIELDS[field], { type: 'keyword' }, field);
  }
  for (const field of ['title', 'description', 'content', 'code', 'breadcrumb', 'pageTitle'] as const) {
    t.deepEqual(SNIPPET_FIELDS[field], { type: 'text', index: false }, field);
  }
  for (const field of ['searchTitle', 'searchBreadcrumb', 'searchBody', 'searchCode', 'searchPath', 'searchIdentifiers'] as const) {
    const mapping = SNIPPET_FIELDS[field];
    t.is(mapping.type, 'text', field);
    t.true('analyzer' in mapping && mapping.analyzer === 'whitespace', field);
  }
  t.deepEqual(SNIPPET_FIELDS.searchBody, {
    type: 'text',
    analyzer: 'whitespace',
    fields: { shingles: { type: 'text', analyzer: 'shelfmark_shingles' } },
  });
});

test('settings: one shard, no replica, sorted by library/version/generation, a shingle analyzer on the standard tokenizer', (t) => {
  t.deepEqual(SNIPPET_INDEX_SETTINGS, {
    number_of_shards: 1,
    number_of_replicas: 0,
    sort: { field: ['libraryId', 'version', 'generation'], order: ['asc', 'asc', 'asc'] },
    analysis: {
      filter: { shelfmark_word_pairs: { type: 'shingle', min_shingle_size: 2, max_shingle_size: 2, output_unigrams: false } },
      analyzer: { shelfmark_shingles: { type: 'custom', tokenizer: 'standard', filter: ['shelfmark_word_pairs'] } },
    },
  });
  // 8.x keeps vectors in _source (a mapping-level exclusion would lose them on partial updates) ...
  t.deepEqual(snippetIndexDefinition({ esMajor: 8 }), { settings: SNIPPET_INDEX_SETTINGS, mappings: SNIPPET_MAPPINGS });
  t.is(SNIPPET_MAPPINGS._source, undefined);
  // ... 9.x leaves them out, so hits never load them (migrations and exports restore them from the cache).
  t.deepEqual(snippetIndexDefinition({ esMajor: 9 }), {
    settings: { ...SNIPPET_INDEX_SETTINGS, mapping: { exclude_source_vectors: true } },
    mappings: SNIPPET_MAPPINGS,
  });
});

test('page kind and version are keyword filters, a section part a short integer', (t) => {
  t.deepEqual(SNIPPET_FIELDS.pageKind, { type: 'keyword' });
  t.deepEqual(SNIPPET_FIELDS.pageVersion, { type: 'keyword' });
  t.deepEqual(SNIPPET_FIELDS.part, { type: 'short' });
});

test('the vector: a 384-dimension dense_vector, dot product on unit vectors, int8 HNSW', (t) => {
  t.deepEqual(SNIPPET_FIELDS.embedding, { type: 'dense_vector', dims: 384, index: true, similarity: 'dot_product', index_options: { type: 'int8_hnsw' } });
});

test('toIndexedSnippet fills the analysed fields and keeps the raw ones', (t) => {
  const raw = snippetDocument();
  const doc = toIndexedSnippet(raw);
  t.is(doc.code, raw.code);
  t.is(doc.searchTitle, 'set cooki');
  t.is(doc.searchBreadcrumb, 'context api ctx.cookies.set cookies.set ctx cooki set');
  t.is(doc.searchBody, 'set cooki name valu option');
  t.is(doc.searchCode, 'ctx.cookies.set cookies.set ctx cooki set name tobi sign true httponly http true');
  t.is(doc.searchPath, 'doc api context');
  t.is(doc.searchIdentifiers, 'setting cookie context api ctx.cookies.set cookies.set ctx cookies set name tobi signed true httponly http');
});

test('toIndexedSnippet: info snippets and breadcrumbs without the page title', (t) => {
  const doc = toIndexedSnippet(
    snippetDocument({ kind: 'info', code: '', language: '', description: '', content: 'Koa uses async functions.', breadcrumb: ['Guide'], pageTitle: 'Koa' }),
  );
  t.is(doc.searchBreadcrumb, 'koa guid');
  t.is(doc.searchBody, 'koa us async function');
  t.is(doc.searchCode, '');
});

test("toIndexedSnippet: a section snippet's body is its prose without the fenced code, which is analysed as code", (t) => {
  const doc = toIndexedSnippet(
    snippetDocument({
      description: 'Set a cookie:',
      content: "Koa uses the cookies module. Set a cookie:\n\n```js\nctx.cookies.set('name', 'tobi');\n```",
      code: "ctx.cookies.set('name', 'tobi');",
    }),
  );
  t.is(doc.searchBody, 'koa us cooki modul set cooki');
  t.is(doc.searchCode, 'ctx.cookies.set cookies.set ctx cooki set name tobi');
});

test('pathWords drops the extension and splits folders', (t) => {
  t.is(pathWords('docs/api/context.md'), 'docs api context');
  t.is(pathWords('src/content/docs/en/5x/guide/error-handling.mdx'), 'src content docs en 5x guide error-handling');
  t.is(pathWords('README'), 'README');
});
