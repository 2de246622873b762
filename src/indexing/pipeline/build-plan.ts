/**
 * Stage 1 of a build (build.ts): what the version serves now and what changed since. Undoes
 * whatever a build that died before publishing left, reads the served generation's manifest
 * (file hashes, per-file figures, page verdicts), and decides whether this build amends the
 * served generation (a refresh: only changed files are written) or rebuilds it (an add).
 */
import type { JobContext } from '../jobs/worker';
import type { LibraryVersionRecord } from '../../store/models/library';
import type { ManifestRecord } from '../../store/models/manifest';
import { FIGURES_VERSION, type FileFigures } from '../snippets/quality-report';
import { previousDocumentHashes } from './page-checks';
import type { IndexingDeps } from './deps';
import type { SourceSnapshot } from '../sources/source';

export interface BuildPlan {
  /** The generation the version serves now (none on a first build). */
  previous?: LibraryVersionRecord;
  /** Its manifest, when it is that generation's. */
  manifest: ManifestRecord | null;
  /** Per-file figures of the kept files, when computed by this code's checks. */
  keptFigures?: FileFigures[];
  /** Path → content hash of the served generation. */
  previousHashes: Map<string, string>;
  /** Documents whose content is unchanged. */
  unchanged: string[];
  /** The served generation a refresh amends; undefined: a full build. */
  amends?: LibraryVersionRecord;
  /** The served generation was built from this very revision: nothing to write. */
  sameRevision: boolean;
}

export async function planBuild(ctx: JobContext, deps: IndexingDeps, snap: SourceSnapshot): Promise<BuildPlan> {
  const job = ctx.job;
  const documents = snap.documents;
  const library = await deps.libraries.get(job.libraryId, { fresh: true });
  const previous = library?.versions.find((v) => v.version === job.version && v.generation > 0);
  if (previous) {
    // Holding the version's build slot: whatever a build that died before publishing left
    // (documents, `retired` marks above the served generation) is undone first.
    const repaired = await deps.store.repair({ libraryId: job.libraryId, version: job.version, served: previous });
    if (repaired.deleted + repaired.unmarked > 0)
      ctx.log('info', `cleaned up after an earlier build: ${repaired.deleted} snippets deleted, ${repaired.unmarked} marks undone`);
  }
  const stored = previous ? await deps.manifests.get(job.libraryId, job.version) : null;
  const manifest = stored && stored.generation === previous?.generation ? stored : null;
  // Figures computed with other checks than this code's are not summed with its own.
  const keptFigures = manifest?.figuresVersion === FIGURES_VERSION ? manifest.figures : undefined;
  const previousHashes = new Map((manifest?.files ?? []).map((f) => [f.p, f.h]));
  const unchanged = documents.filter((d) => previousHashes.get(d.path) === d.hash).map((d) => d.path);
  // What changed by the documents' own content (a page with includes is counted by its own
  // blob, a redirect stub or a copy by the verdict kept with it), not by what is re-parsed.
  const change = fileChanges(previousDocumentHashes(manifest?.checked, manifest?.files ?? []), documents);
  await ctx.progress({ filesAdded: change.added, filesChanged: change.changed, filesRemoved: change.removed });
  ctx.log(
    'info',
    `since the previous build: ${change.added} files added, ${change.changed} changed, ${change.removed} removed, ${documents.length - change.added - change.changed} unchanged`,
  );
  // A refresh of the very revision the served generation was built from has nothing to write:
  // the same revision gives the same pages. An add always rebuilds, so changed options take effect.
  const sameRevision = job.kind === 'refresh' && previous !== undefined && previous.commit === snap.revision && previousHashes.size > 0 && change.removed === 0;
  // A refresh amends the served generation (search/served.ts); an add rebuilds everything.
  const amends = job.kind === 'refresh' && previous !== undefined && previousHashes.size > 0 ? previous : undefined;
  return { previous, manifest, ...(keptFigures ? { keptFigures } : {}), previousHashes, unchanged, amends, sameRevision };
}

/** Doc files added, changed and removed against the previous build's manifest (path → content hash). */
export function fileChanges(
  previous: ReadonlyMap<string, string>,
  current: readonly { path: string; hash: string }[],
): { added: number; changed: number; removed: number } {
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
