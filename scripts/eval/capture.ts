/**
 * `npx tsx scripts/eval/capture.ts <dataset.yaml> [--off-topic eval/off-topic.yaml] [--topics eval/topics.yaml] [--out .eval/capture.json]`
 *
 * Captures what a context answer is made of for every question (the lexical candidates and
 * the kNN neighbours with their evidence, the library's term statistics, the question's
 * vector), exactly as getContext gathers them from the running configuration's stores, so that ranking, relevance cut-off and answer assembly can be replayed and
 * swept offline in a second (`scripts/eval/replay.ts`) instead of restarting a server per
 * setting. Paraphrase variants are captured too. The live eval (`npm run eval`) stays the
 * measure of record; a replay reproduces it when the capture is fresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import yaml from 'js-yaml';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createServices, portsOf } from '../../src/services';
import { parseLibraryId } from '../../src/domain/library-ids';
import { resolveVersion } from '../../src/store/libraries';
import { analyzeQuery } from '../../src/search/analysis';
import { buildContextQuery } from '../../src/search/queries/context';
import { buildKnnQuery } from '../../src/search/queries/knn';
import type { ScoredCandidate } from '../../src/search/types';
import type { Capture, CapturedHit, CapturedQuestion } from './captured';
import { SEARCH_WEIGHTS } from '../../src/search/weights';
import { DEFAULT_TOKENS } from '../../src/search/budget';
import { candidatesFor } from '../../src/retrieval/context';
import { isPartOf } from '../../src/search/section-parts';
import { libraryIdOf, readDataset } from './dataset';
import { phrase, VARIANTS } from './variants';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'off-topic': { type: 'string' }, topics: { type: 'string' }, out: { type: 'string', default: '.eval/capture.json' } },
  });
  const entries = readDataset(path.resolve(positionals[0] ?? '../shared/eval/dev-sections.yaml'));
  const config = loadConfig();
  const composition = await createServices(config, createLogger('warn', process.stderr));
  const { lifecycle } = composition;
  const services = portsOf(composition);
  const capture: Capture = { questions: [], docs: {} };
  const keep = (hits: ScoredCandidate[]): CapturedHit[] =>
    hits.map((h) => {
      // A snippet read as a part (no vector) may be another question's candidate (with one).
      if (capture.docs[h.doc.id]?.vector === undefined && h.evidence?.vector) delete capture.docs[h.doc.id];
      capture.docs[h.doc.id] ??= {
        doc: h.doc,
        text: h.evidence?.text ?? { searchTitle: '', searchBreadcrumb: '', searchBody: '', searchCode: '', searchPath: '', searchIdentifiers: '' },
        ...(h.evidence?.vector ? { vector: Array.from(h.evidence.vector) } : {}),
      };
      return { id: h.doc.id, score: h.score };
    });
  const ask = async (q: Omit<CapturedQuestion, 'lexical' | 'semantic' | 'parts' | 'version' | 'stats' | 'queryVector'>) => {
    const { libraryId, version: requested } = parseLibraryId(q.libraryId);
    const library = await services.libraries.get(libraryId, { fresh: true });
    const version = library ? resolveVersion(library, requested) : undefined;
    if (!library || !version) throw new Error(`${q.libraryId} is not indexed here`);
    const scope = { libraryId: library._id, version: version.version, generation: version.generation, baseGeneration: version.baseGeneration };
    const analyzed = analyzeQuery(q.query);
    const vectors = { vectors: services.embeddings !== undefined };
    const lexical = await services.snippets.searchCandidates(
      buildContextQuery({ ...scope, query: q.query, size: candidatesFor(DEFAULT_TOKENS), analyzed }),
      vectors,
    );
    const queryVector = services.embeddings ? await services.embeddings.embedQuery(q.query) : undefined;
    const semantic = queryVector
      ? await services.snippets.searchCandidates(buildKnnQuery({ ...scope, vector: queryVector, size: SEARCH_WEIGHTS.answer.knnHits }), vectors)
      : [];
    const stats = await services.snippets.termStats(scope, analyzed.terms);
    // The parts before every later part in the pool, as the context use case reads them for
    // the sections its answer holds (completeAnswer): the replay serves a section from its
    // opening part on, whichever sections the weights being swept select.
    const later = [...lexical, ...semantic].filter((c) => (c.doc.part ?? 0) > 0).map((c) => c.doc);
    const read = later.length ? await services.snippets.sectionParts({ ...scope, wanted: later.map((d) => ({ path: d.path, below: d.part ?? 0 })) }) : [];
    const wanted = later.map((d) => ({ path: d.path, title: d.title, breadcrumb: d.breadcrumb }));
    capture.questions.push({
      ...q,
      version: version.version,
      lexical: keep(lexical),
      semantic: keep(semantic),
      parts: keep(read.filter((c) => isPartOf(c.doc, wanted))),
      stats: { total: stats.total, df: Object.fromEntries(stats.df) },
      ...(queryVector ? { queryVector: Array.from(queryVector) } : {}),
    });
  };
  for (const e of entries) {
    for (const variant of VARIANTS) {
      await ask({
        set: 'dev',
        index: e.index,
        variant,
        library: e.library,
        libraryId: libraryIdOf(e),
        intent: e.intent,
        query: phrase(e.query, e.library, variant),
        sections: e.sections ?? [],
      });
    }
    process.stderr.write('.');
  }
  if (values['off-topic']) {
    const doc = yaml.load(fs.readFileSync(values['off-topic'], 'utf8')) as { entries: Array<{ library: string; query: string }> };
    for (const [index, e] of doc.entries.entries())
      await ask({ set: 'off-topic', index, variant: 'original', library: e.library, libraryId: e.library, intent: 'off-topic', query: e.query, sections: [] });
  }
  if (values.topics) {
    const doc = yaml.load(fs.readFileSync(values.topics, 'utf8')) as { entries: Array<{ library: string; query: string }> };
    for (const [index, e] of doc.entries.entries())
      await ask({ set: 'topic', index, variant: 'original', library: e.library, libraryId: e.library, intent: 'topic', query: e.query, sections: [] });
  }
  fs.mkdirSync(path.dirname(values.out ?? '.'), { recursive: true });
  fs.writeFileSync(values.out ?? '.eval/capture.json', JSON.stringify(capture));
  process.stderr.write(`\ncaptured ${capture.questions.length} questions (${Object.keys(capture.docs).length} snippets) into ${values.out}\n`);
  await lifecycle.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
