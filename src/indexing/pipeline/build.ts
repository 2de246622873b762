/**
 * The build of one library version, whatever its source (sources/source.ts), as named stages
 * behind one `buildVersion`: plan (what is served and what changed, build-plan.ts) → pages
 * (read, includes, parse, page kinds, languages; parse-pages.ts) → the source's supplement
 * (code docs) → finish and embed → commit → publish the new generation (publish.ts) → the
 * source's after-build step. Every way a version gets built goes through it: queued jobs
 * (`runBuild`), an OpenAPI upload and the tests' seeding (with a detached context,
 * jobs/detached.ts); bundle import writes prebuilt snippets and shares the publish stage.
 */
import type { JobContext } from '../jobs/worker';
import type { SnippetDocument } from '../../search/types';
import { JobFailure } from '../jobs/failure';
import { describeProject } from '../discover/project-summary';
import { finishSnippets } from '../snippets/finish';
import { newGeneration, publishGeneration, type PublishResult } from './publish';
import { planBuild, type BuildPlan } from './build-plan';
import { parsePages, type ParsedPages } from './parse-pages';
import type { IndexingDeps } from './deps';
import type { DocumentSource, SourceSnapshot } from '../sources/source';

export { fileChanges } from './build-plan';

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
    await buildVersion(ctx, deps, snapshot);
  } finally {
    await snapshot.close();
  }
}

/** Builds and publishes one version from an open snapshot; undefined when nothing changed. */
export async function buildVersion(ctx: JobContext, deps: IndexingDeps, snap: SourceSnapshot): Promise<PublishResult | undefined> {
  const plan = await planBuild(ctx, deps, snap);
  if (plan.sameRevision) {
    ctx.log('info', `no change since the build of ${snap.revision.slice(0, 12)}: nothing written`);
    await ctx.progress({ filesReused: plan.unchanged.length, snippets: plan.previous?.totalSnippets ?? 0, snippetsIndexed: 0 });
    await snap.after?.(ctx);
    return undefined;
  }
  const pages = await parsePages(ctx, snap, plan);
  await addSupplement(ctx, deps, snap, plan, pages);
  const generation = newGeneration(plan.previous?.generation);
  const snippets = await finishAndEmbed(ctx, deps, snap, plan, pages, generation);
  // From here the build becomes visible: a cancel that comes later is refused.
  await ctx.commit();
  const totals = await publish(ctx, deps, snap, plan, pages, snippets, generation);
  await snap.after?.(ctx);
  return totals;
}

/** The source's generated snippets (code docs), asked with the build's count of code examples. */
async function addSupplement(ctx: JobContext, deps: IndexingDeps, snap: SourceSnapshot, plan: BuildPlan, pages: ParsedPages): Promise<void> {
  if (!snap.supplement) return;
  const job = ctx.job;
  const { amends, keptFigures } = plan;
  let codeCount = pages.parsed.filter((s) => s.kind === 'code').length;
  if (amends && codeCount < MIN_CODE_COUNTED && pages.keep.length > 0) {
    // Few code examples among the changed pages: count the kept ones too, from their
    // figures in the manifest, else reading only their kind.
    const keptPaths = new Set(pages.keep);
    if (keptFigures) codeCount += keptFigures.filter((f) => keptPaths.has(f.p)).reduce((n, f) => n + f.c, 0);
    else {
      const kept = await deps.store.read({
        libraryId: job.libraryId,
        version: job.version,
        generation: amends.generation,
        baseGeneration: amends.baseGeneration,
        paths: pages.keep,
        fields: ['kind'],
      });
      codeCount += kept.filter((s) => s.kind === 'code').length;
    }
  }
  const extra = await snap.supplement(ctx, codeCount);
  pages.parsed.push(...extra.snippets.map((s) => ({ ...s, pageKind: s.pageKind ?? ('reference' as const) })));
  if (extra.snippets.length > 0) for (const f of extra.files) pages.fileHashes.set(f.path, f.hash);
}

/** Finished snippet documents of the new generation, with their vectors (embeddings on). */
async function finishAndEmbed(
  ctx: JobContext,
  deps: IndexingDeps,
  snap: SourceSnapshot,
  plan: BuildPlan,
  pages: ParsedPages,
  generation: number,
): Promise<SnippetDocument[]> {
  const job = ctx.job;
  const fresh = finishSnippets(pages.parsed, { libraryId: job.libraryId, version: job.version, fileUrl: snap.fileUrl, fileHashes: pages.fileHashes });
  // Cross-file duplicates are dropped among the pages parsed now; against the kept pages'
  // snippets they are not (a full build, an add, dedupes everything; see "Generations").
  let all: SnippetDocument[] = fresh.map((s) => ({ ...s, generation }));
  if (all.length === 0 && pages.keep.length === 0) throw new JobFailure('no_snippets_found', snap.emptyMessage);
  await ctx.progress({ snippets: plan.amends ? (plan.previous?.totalSnippets ?? all.length) : all.length });
  await ctx.checkpoint();
  await ctx.setState('indexing');
  if (!deps.embeddings) return all;
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
  return all;
}

/** Writes the generation and switches the version to it (publish.ts). */
async function publish(
  ctx: JobContext,
  deps: IndexingDeps,
  snap: SourceSnapshot,
  plan: BuildPlan,
  pages: ParsedPages,
  snippets: SnippetDocument[],
  generation: number,
): Promise<PublishResult> {
  const job = ctx.job;
  const { amends, keptFigures } = plan;
  // The library's title and description from the project's own summary (latest only).
  const described = job.version === 'latest' ? await describeProject({ paths: snap.documents.map((d) => d.path), read: (p) => snap.files.read(p) }) : {};
  const totals = await publishGeneration(
    deps,
    {
      libraryId: job.libraryId,
      version: job.version,
      ref: snap.ref,
      tags: snap.tags,
      commit: snap.revision,
      generation,
      snippets,
      ...(amends ? { amend: { served: amends, keep: pages.keep, ...(keptFigures ? { figures: keptFigures } : {}) } } : {}),
      files: [...pages.fileHashes].map(([p, h]) => ({ p, h })),
      checked: pages.checks,
      meta: job.version === 'latest' ? snap.meta(described) : {},
    },
    // snippets stays the total, so the indexing stage has a bar of its own
    (written) => void ctx.progress({ snippetsIndexed: written }),
  );
  await ctx.progress({ snippets: totals.totalSnippets, snippetsIndexed: totals.written });
  ctx.log(
    'info',
    `indexed ${totals.totalSnippets} snippets (${totals.totalTokens} tokens), benchmark score ${totals.benchmarkScore}: ${totals.written} written, ${totals.retired} retired`,
  );
  ctx.log('info', `publish: write${amends ? ' and mark' : ''} ${totals.ms.write} ms, totals ${totals.ms.totals} ms, switch ${totals.ms.switch} ms`);
  return totals;
}
