import test from 'ava';
import { withoutCopies } from './copies';
import type { RescoredCandidate } from './rescore';
import { infoSection, scoredCandidate } from './test-fixtures';
import type { SnippetDocument } from './types';
import { SEARCH_WEIGHTS } from './weights';

const w = SEARCH_WEIGHTS.answer;
const info = (title: string, content: string, over: Partial<SnippetDocument> = {}) => infoSection(title, content, { tokens: 100, ...over });

test('a section copied onto another page is served once, from the documentation page rather than a README', (t) => {
  const readme = scoredCandidate(info('Inferring types', 'Infer the type of a schema.', { path: 'packages/lib/README.md' }), [1, 0.01, 0]);
  const docs = scoredCandidate(info('Inferring types', 'Infer the type of a schema with infer.', { path: 'docs/basics.md' }), [1, 0.02, 0]);
  const other = scoredCandidate(info('Transforms', 'Transform a value.', { path: 'docs/api.md' }), [0, 1, 0]);
  const row = (c: typeof readme, score: number): RescoredCandidate => ({
    doc: c.doc,
    score,
    coverage: 1,
    matched: '0',
    parts: { lexical: 0, semantic: 0, title: 0, headings: 0 },
  });
  const pool = [readme, docs, other];
  const out = withoutCopies([row(readme, 0.9), row(docs, 0.8), row(other, 0.7)], pool, w.copyCosine);
  t.deepEqual(
    out.map((r) => [r.doc.path, r.score]),
    [
      ['docs/basics.md', 0.9],
      ['docs/api.md', 0.7],
    ],
    "the docs page takes the README's place",
  );
  const twoPages = withoutCopies([row(docs, 0.9), row(readme, 0.8), row(other, 0.7)], pool, w.copyCosine);
  t.deepEqual(
    twoPages.map((r) => r.doc.path),
    ['docs/basics.md', 'docs/api.md'],
    'the README copy below the docs page is left out',
  );
  const samePage = scoredCandidate(info('Inferring types', 'Infer it, part two.', { path: 'packages/lib/README.md' }), [1, 0.01, 0]);
  t.is(withoutCopies([row(readme, 0.9), row(samePage, 0.8)], [readme, samePage], w.copyCosine).length, 2, 'sections of one page are not copies of each other');
  t.is(withoutCopies([row(readme, 0.9), row(docs, 0.3)], pool, w.copyCosine, 0.5).length, 2, 'below minScore nothing is compared');
  const apart = scoredCandidate(info('Inferring types', 'Something else.', { path: 'docs/other.md' }), [1, 0.6, 0]);
  t.is(withoutCopies([row(readme, 0.9), row(apart, 0.8)], [readme, apart], w.copyCosine).length, 2, 'similar is not a copy');
  // The same heading and nearly the same words on another page: a copy, though the vectors differ (the headings above do).
  const source = scoredCandidate(
    info('missing_context', 'Context was not set in a parent component. Call setContext in an ancestor before getContext reads it in this component.', {
      path: 'packages/lib/messages/errors.md',
    }),
    [0, 0, 1],
  );
  const generated = scoredCandidate(
    info('missing_context', 'Context was not set in a parent component. Call `setContext` in an ancestor before `getContext` reads it in this component.', {
      path: 'docs/reference/.generated/errors.md',
    }),
    [0.5, 0, 0.85],
  );
  t.deepEqual(
    withoutCopies([row(generated, 0.9), row(source, 0.8), row(other, 0.7)], [generated, source, other], w.copyCosine).map((r) => r.doc.path),
    ['docs/reference/.generated/errors.md', 'docs/api.md'],
  );
  const renamed = scoredCandidate({ ...source.doc, id: 'renamed', title: 'context_missing' }, [0, 0, 1]);
  t.is(withoutCopies([row(generated, 0.9), row(renamed, 0.8)], [generated, renamed], w.copyCosine).length, 2, 'another heading: not the same section');
});
