/**
 * The generic build of one library version, whatever its source (sources/source.ts):
 * open the source's snapshot (the documents selected, each with a content hash) → keep the
 * served snippets of unchanged documents (a refresh writes only what changed, see
 * search/served.ts) → read and parse the rest (includes expanded, non-English pages left out)
 * → the source's supplement (code docs) → finish → embed → publish the new generation → the
 * source's after-build step.
 */
import type { JobContext } from '../jobs/worker';
import type { ParsedSnippet } from '../types';
import type { SnippetDocument } from '../../search/types';
import { JobFailure } from '../jobs/failure';
import { describeProject } from '../discover/project-summary';
import { judgeLanguage, proseOf } from '../discover/language';
import { parseDocument } from '../parsers';
import { dependentHash, describeProblems, expandIncludes, includeSettings, type IncludeProblem } from '../includes';
import { readPages } from './pages';
import { previousDocumentHashes } from './page-checks';
import { FIGURES_VERSION } from '../snippets/quality-report';
import { finishSnippets } from '../snippets/finish';
import { newGeneration, publishGeneration, type PublishDeps } from './publish';
import type { IndexingDeps } from './deps';
import type { DocumentSource, SourceSnapshot } from '../sources/source';

/**
 * Below this many code snippets among the changed pages a refresh also counts the kept ones
 * before asking the source's supplement (which generates code docs below 5 in all).
 */
const MIN_CODE_COUNTED = 5;

export async function runBuild(ctx: JobContext, deps: IndexingDeps, source: DocumentSource): Promise<void> {
  // A source that can tell cheaply that the served version is current (a remote whose ref
  // still points at the served commit) ends the job before fetching anything.
  if (ctx.job.kind === 'refresh' && (await source.upToDate?.(ctx))) return;
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

  // Documents whose content is unchanged keep their served snippets.
  const library = await deps.libraries.get(job.libraryId, { fresh: true });
  const previous = library?.versions.find((v) => v.version === job.version && v.generation > 0);
  if (previous) {
    // Holding the version's build slot: whatever a build that died before publishing left
    // (documents, `retired` marks above the served generation) is undone first.
    const repaired = await deps.store.repair({ libraryId: job.libraryId, version: job.version, served: previous });
    if (repaired.deleted + repaired.unmarked > 0) ctx.log('info', `cleaned up after an earlier build: ${repaired.deleted} snippets deleted, ${repaired.unmarked} marks undone`);
  }
  const stored = previous ? await deps.Manifest.findById(`${job.libraryId}@${job.version}`).lean() : null;
  const manifest = stored && stored.generation === previous?.generation ? stored : null;
  // Figures computed with other checks than this code's are not summed with its own.
  const keptFigures = manifest?.figuresVersion === FIGURES_VERSION ? manifest.figures : undefined;
  const previousHashes = new Map((manifest?.files ?? []).map((f) => [f.p, f.h]));
  const unchanged = documents.filter((d) => previousHashes.get(d.path) === d.hash).map((d) => d.path);
  // What changed by the documents' own content (a page with includes is counted by its own
  // blob, a redirect stub or a copy by the verdict kept with it), not by what is re-parsed.
  const change = fileChanges(previousDocumentHashes(manifest?.checked, manifest?.files ?? []), documents);
  await ctx.progress({ filesAdded: change.added, filesChanged: change.changed, filesRemoved: change.removed });
  ctx.log('info', `since the previous build: ${change.added} files added, ${change.changed} changed, ${change.removed} removed, ${documents.length - change.added - change.changed} unchanged`);
  // A refresh of the very revision the served generation was built from has nothing to write:
  // the same revision gives the same pages. The served generation stays; an add always
  // rebuilds, so changed options take effect.
  if (job.kind === 'refresh' && previous && previous.commit === snap.revision && previousHashes.size > 0 && change.removed === 0) {
    ctx.log('info', `no change since the build of ${snap.revision.slice(0, 12)}: nothing written`);
    await ctx.progress({ filesReused: unchanged.length, snippets: previous.totalSnippets, snippetsIndexed: 0 });
    await snap.after?.(ctx);
    return;
  }
  // A refresh amends the served generation (search/served.ts); an add rebuilds everything.
  const amends = job.kind === 'refresh' && previous !== undefined && previousHashes.size > 0 ? previous : undefined;
  const unchangedSet = new Set(amends ? unchanged : []);

  const parsed: ParsedSnippet[] = [];
  const fileHashes = new Map<string, string>();
  const texts = snap.files;
  const includes = await includeSettings(texts);
  const includeProblems: IncludeProblem[] = [];
  let includedCount = 0;
  /** Pages whose prose is not English although their names do not say so (decided after the loop). */
  const foreign: { path: string; language: string; snippets: ParsedSnippet[] }[] = [];
  let parsedCount = 0;
  const { pages, excluded, checks, read } = await readPages(ctx, documents, texts, snap.config, amends ? manifest?.checked : undefined);
  if (read < documents.length) ctx.log('info', `read ${read} of ${documents.length} pages; the others kept their verdicts (stub, copy, page)`);
  // Documents reused without being read (a page that answered 304) keep their hash.
  for (const d of documents) if (d.reuseOnly && unchangedSet.has(d.path)) fileHashes.set(d.path, d.hash);
  // The description comes from the README (or the docs' home page) even when its page is left out as a copy.
  const described = await describeProject({ paths: documents.map((d) => d.path), read: (p) => texts.read(p) });
  for (const page of pages) {
    const file = page.file;
    fileHashes.set(file.path, file.hash);
    if (unchangedSet.has(file.path)) continue;
    const text = page.text ?? (await texts.read(file.path));
    if (text === undefined) {
      // Judged readable before (same content): only a lower size limit makes it unreadable now.
      ctx.log('warn', `skipped ${file.path}: binary, not UTF-8 or too large`);
      fileHashes.delete(file.path);
      excluded.add(file.path);
      continue;
    }
    if (snap.parse) {
      parsed.push(...(await snap.parse({ path: file.path, text })));
      parsedCount++;
      continue;
    }
    const expanded = await expandIncludes({ path: file.path, text }, texts, includes);
    includeProblems.push(...expanded.problems);
    if (expanded.included.length > 0) {
      includedCount += expanded.included.length;
      const hash = dependentHash(file.hash, expanded.included, texts);
      fileHashes.set(file.path, hash);
      // A page with includes is unchanged when neither it nor what it includes changed
      // (its manifest entry is that dependent hash, not its own content hash).
      if (amends && previousHashes.get(file.path) === hash) {
        unchangedSet.add(file.path);
        continue;
      }
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
  // The unchanged documents whose served snippets stay: still in the build (not left out as copies).
  const keep = [...unchangedSet].filter((p) => fileHashes.has(p) && !excluded.has(p));
  ctx.log('info', `parsed ${parsedCount} files, kept the snippets of ${keep.length} unchanged files`);
  if (includedCount > 0 || includeProblems.length > 0) ctx.log('info', `resolved ${includedCount} includes; ${includeProblems.length} left as written`);
  for (const line of describeProblems(includeProblems)) ctx.log('warn', line);
  await ctx.progress({ filesParsed: parsedCount, filesReused: keep.length });

  if (snap.supplement) {
    let codeCount = parsed.filter((s) => s.kind === 'code').length;
    if (amends && codeCount < MIN_CODE_COUNTED && keep.length > 0) {
      // Few code examples among the changed pages: count the kept ones too, from their
      // figures in the manifest, else reading only their kind.
      const keptPaths = new Set(keep);
      if (keptFigures) codeCount += keptFigures.filter((f) => keptPaths.has(f.p)).reduce((n, f) => n + f.c, 0);
      else {
        const kept = await deps.store.read({ libraryId: job.libraryId, version: job.version, generation: amends.generation, baseGeneration: amends.baseGeneration, paths: keep, fields: ['kind'] });
        codeCount += kept.filter((s) => s.kind === 'code').length;
      }
    }
    const extra = await snap.supplement(ctx, codeCount);
    parsed.push(...extra.snippets);
    if (extra.snippets.length > 0) for (const f of extra.files) fileHashes.set(f.path, f.hash);
  }

  const generation = newGeneration(previous?.generation);
  const fresh = finishSnippets(parsed, { libraryId: job.libraryId, version: job.version, fileUrl: snap.fileUrl, fileHashes });
  // Cross-file duplicates are dropped among the pages parsed now; against the kept pages'
  // snippets they are not (a full build, an add, dedupes everything; see "Generations").
  let all: SnippetDocument[] = fresh.map((s) => ({ ...s, generation }));
  if (all.length === 0 && keep.length === 0) throw new JobFailure('no_snippets_found', snap.emptyMessage);
  await ctx.progress({ snippets: amends ? (previous?.totalSnippets ?? all.length) : all.length });
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
      ...(amends ? { amend: { served: amends, keep, ...(keptFigures ? { figures: keptFigures } : {}) } } : {}),
      files: [...fileHashes].map(([p, h]) => ({ p, h })),
      checked: checks,
      meta: job.version === 'latest' ? snap.meta(described) : {},
    },
    // snippets stays the total, so the indexing stage has a bar of its own
    (written) => void ctx.progress({ snippetsIndexed: written }),
  );
  await ctx.progress({ snippets: totals.totalSnippets, snippetsIndexed: totals.written });
  ctx.log('info', `indexed ${totals.totalSnippets} snippets (${totals.totalTokens} tokens), benchmark score ${totals.benchmarkScore}: ${totals.written} written, ${totals.retired} retired`);
  ctx.log('info', `publish: write${amends ? ' and mark' : ''} ${totals.ms.write} ms, totals ${totals.ms.totals} ms, switch ${totals.ms.switch} ms`);

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
