/**
 * The generic build of one library version, whatever its source (sources/source.ts):
 * open the source's snapshot (the documents selected, each with a content hash) → reuse the
 * previous generation's snippets of unchanged documents → read and parse the rest (includes
 * expanded, non-English pages left out) → the source's supplement (code docs) → finish →
 * embed → publish the new generation → the source's after-build step.
 */
import type { JobContext } from '../jobs/worker';
import type { ParsedSnippet, SnippetDocument } from '../types';
import { JobFailure } from '../jobs/failure';
import { describeFromReadme } from '../discover/readme';
import { judgeLanguage, proseOf } from '../discover/language';
import { parseDocument } from '../parsers';
import { dependentHash, describeProblems, expandIncludes, includeSettings, type IncludeProblem } from '../includes';
import { readPages } from './pages';
import { finishSnippets } from '../snippets/finish';
import { newGeneration, publishGeneration, type PublishDeps } from './publish';
import type { IndexingDeps } from './deps';
import type { DocumentSource, SourceSnapshot } from '../sources/source';

export async function runBuild(ctx: JobContext, deps: IndexingDeps, source: DocumentSource): Promise<void> {
  const snapshot = await source.open(ctx);
  try {
    await build(ctx, deps, snapshot);
  } finally {
    await snapshot.close();
  }
}

async function build(ctx: JobContext, deps: IndexingDeps, snap: SourceSnapshot): Promise<void> {
  const job = ctx.job;
  const documents = snap.documents;

  // Reuse the previous generation's snippets for documents whose content is unchanged.
  const library = await deps.libraries.get(job.libraryId, { fresh: true });
  const previous = library?.versions.find((v) => v.version === job.version);
  const manifest = previous ? await deps.Manifest.findById(`${job.libraryId}@${job.version}`).lean() : null;
  const previousHashes = new Map((manifest && manifest.generation === previous?.generation ? manifest.files : []).map((f) => [f.p, f.h]));
  const unchanged = documents.filter((d) => previousHashes.get(d.path) === d.hash).map((d) => d.path);
  const change = fileChanges(previousHashes, documents);
  await ctx.progress({ filesAdded: change.added, filesChanged: change.changed, filesRemoved: change.removed });
  ctx.log('info', `since the previous build: ${change.added} files added, ${change.changed} changed, ${change.removed} removed, ${unchanged.length} unchanged`);
  // A refresh of the very revision the served generation was built from, with the same doc
  // files, has nothing to write: the served generation stays (an add always rebuilds, so
  // changed options take effect).
  if (job.kind === 'refresh' && previous && previous.generation > 0 && previous.commit === snap.revision && previousHashes.size > 0 && change.added + change.changed + change.removed === 0) {
    ctx.log('info', `no change since the build of ${snap.revision.slice(0, 12)}: nothing written`);
    await ctx.progress({ filesReused: unchanged.length, snippets: previous.totalSnippets, snippetsIndexed: 0 });
    await snap.after?.(ctx);
    return;
  }
  let reused: SnippetDocument[] = previous && unchanged.length > 0 ? await deps.store.read({ libraryId: job.libraryId, version: job.version, generation: previous.generation, paths: unchanged }) : [];
  const unchangedSet = new Set(unchanged);

  const parsed: ParsedSnippet[] = [];
  const fileHashes = new Map<string, string>();
  const texts = snap.files;
  const includes = await includeSettings(texts);
  const includeProblems: IncludeProblem[] = [];
  let includedCount = 0;
  /** Pages whose prose is not English although their names do not say so (decided after the loop). */
  const foreign: { path: string; language: string; snippets: ParsedSnippet[] }[] = [];
  let parsedCount = 0;
  const { pages, excluded } = await readPages(ctx, documents, texts, snap.config);
  if (excluded.size > 0) reused = reused.filter((s) => !excluded.has(s.path));
  // Documents reused without being read (a page that answered 304) keep their hash.
  for (const d of documents) if (d.reuseOnly && unchangedSet.has(d.path)) fileHashes.set(d.path, d.hash);
  // The description comes from the README even when its page is left out as a copy.
  const readmeDoc = documents.find((d) => /^readme\.(md|mdx|markdown|rst|txt)$/i.test(d.path));
  const readme = readmeDoc ? await texts.read(readmeDoc.path) : undefined;
  for (const { file, text } of pages) {
    fileHashes.set(file.path, file.hash);
    if (unchangedSet.has(file.path)) continue;
    const expanded = await expandIncludes({ path: file.path, text }, texts, includes);
    includeProblems.push(...expanded.problems);
    if (expanded.included.length > 0) {
      includedCount += expanded.included.length;
      fileHashes.set(file.path, dependentHash(file.hash, expanded.included, texts));
    }
    const snippets = parseDocument({ path: file.path, text: expanded.text });
    const verdict = judgeLanguage(proseOf(text));
    if (verdict.english) parsed.push(...snippets);
    else foreign.push({ path: file.path, language: verdict.language ?? 'unknown', snippets });
    parsedCount++;
    if (parsedCount % 50 === 0) {
      await ctx.progress({ filesParsed: parsedCount, filesReused: unchanged.length });
      await ctx.checkpoint();
    }
  }
  keepEnglishPages(ctx, foreign, parsed, fileHashes, parsedCount);
  ctx.log('info', `parsed ${parsedCount} files, reused ${unchanged.length} unchanged files (${reused.length} snippets)`);
  if (includedCount > 0 || includeProblems.length > 0) ctx.log('info', `resolved ${includedCount} includes; ${includeProblems.length} left as written`);
  for (const line of describeProblems(includeProblems)) ctx.log('warn', line);
  await ctx.progress({ filesParsed: parsedCount, filesReused: unchanged.length });

  if (snap.supplement) {
    const codeCount = parsed.filter((s) => s.kind === 'code').length + reused.filter((s) => s.kind === 'code').length;
    const extra = await snap.supplement(ctx, codeCount);
    parsed.push(...extra.snippets);
    if (extra.snippets.length > 0) for (const f of extra.files) fileHashes.set(f.path, f.hash);
  }

  const generation = newGeneration();
  const fresh = finishSnippets(parsed, { libraryId: job.libraryId, version: job.version, fileUrl: snap.fileUrl, fileHashes });
  let all = [...reused, ...fresh].map((s) => ({ ...s, generation }));
  if (all.length === 0) throw new JobFailure('no_snippets_found', snap.emptyMessage);
  await ctx.progress({ snippets: all.length });
  await ctx.checkpoint();

  await ctx.setState('indexing');
  if (deps.embeddings) {
    // Before the commit, so a cancel still stops a long embedding run; cached vectors
    // (unchanged texts of this or any earlier build) cost a lookup, not a model run.
    const started = Date.now();
    let embedded = 0;
    all = await deps.embeddings.attach(all, async (p) => {
      embedded = p.embedded;
      await ctx.progress({ snippetsEmbedded: p.cached + p.embedded });
      await ctx.checkpoint();
    });
    ctx.log('info', `vectors for ${all.length} snippets: ${all.length - embedded} from the cache, ${embedded} embedded in ${Date.now() - started} ms`);
  }
  // From here the build becomes visible: a cancel that comes later is refused.
  await ctx.commit();
  const described = readme ? describeFromReadme(readme) : {};
  const publishDeps: PublishDeps = deps;
  const totals = await publishGeneration(
    publishDeps,
    {
      libraryId: job.libraryId,
      version: job.version,
      ref: snap.ref,
      tags: snap.tags,
      commit: snap.revision,
      generation,
      snippets: all,
      files: [...fileHashes].map(([p, h]) => ({ p, h })),
      meta: job.version === 'latest' ? snap.meta(described) : {},
    },
    // snippets stays the total, so the indexing stage has a bar of its own
    (written) => void ctx.progress({ snippetsIndexed: written }),
  );
  ctx.log('info', `indexed ${totals.totalSnippets} snippets (${totals.totalTokens} tokens), benchmark score ${totals.benchmarkScore}`);

  await snap.after?.(ctx);
}

/** Doc files added, changed and removed against the previous build's manifest (path → content hash). */
export function fileChanges(previous: ReadonlyMap<string, string>, current: readonly { path: string; hash: string }[]): { added: number; changed: number; removed: number } {
  let added = 0;
  let changed = 0;
  for (const f of current) {
    const before = previous.get(f.path);
    if (before === undefined) added++;
    else if (before !== f.hash) changed++;
  }
  const now = new Set(current.map((f) => f.path));
  const removed = [...previous.keys()].filter((p) => !now.has(p)).length;
  return { added, changed, removed };
}

/**
 * Pages found not to be English by their content are left out, the English pages kept,
 * unless they are most of the docs: then the library is written in that language and
 * everything is kept. A page left out is re-judged on the next build (no manifest entry).
 */
function keepEnglishPages(ctx: JobContext, foreign: { path: string; language: string; snippets: ParsedSnippet[] }[], parsed: ParsedSnippet[], fileHashes: Map<string, string>, parsedCount: number): void {
  if (foreign.length === 0) return;
  if (foreign.length * 2 > parsedCount) {
    ctx.log('info', `${foreign.length} of ${parsedCount} pages are not in English: kept, the docs are written in their language`);
    for (const f of foreign) parsed.push(...f.snippets);
    return;
  }
  for (const f of foreign.slice(0, 30)) ctx.log('info', `skipped ${f.path}: not English (${f.language}) by its content`);
  if (foreign.length > 30) ctx.log('info', `... and ${foreign.length - 30} more pages not in English`);
  for (const f of foreign) fileHashes.delete(f.path);
}
