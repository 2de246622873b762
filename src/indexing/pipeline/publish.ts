/**
 * The last step of every build (git, OpenAPI, bundle import): write the build's snippets,
 * switch the library version to its generation in one MongoDB update, record the manifest,
 * then delete what the version no longer serves. Until the switch, readers keep getting the
 * previous generation, complete (search/served.ts).
 *
 * A full build writes every snippet and serves from its own generation up (`baseGeneration`
 * = its generation), so older documents drop out of view at the switch without being
 * touched. A refresh (`amend`) writes only the snippets of files that changed or appeared,
 * marks the served snippets of every other file but the unchanged ones `retired` (bulk
 * partial updates in the same bulk requests, no scripting), and keeps the served base: the
 * unchanged snippets stay where they are and are never read back or rewritten. Totals and
 * the quality report are summed from per-file figures (snippets/quality-report.ts): the
 * kept files' from the manifest, the written ones' computed here; the manifest records the
 * new generation's figures for the next refresh.
 */
import type { SnippetDocument } from '../../search/types';
import type { SnippetStore } from '../../search/snippet-store';
import type { LibraryRepository } from '../../store/libraries';
import type { ManifestStore } from '../../store/manifests';
import type { LibraryRecord, LibraryVersionRecord } from '../../store/models/library';
import { FIGURES_VERSION, figuresByFile, totalsFromFigures, type FileFigures } from '../snippets/quality-report';
import type { PageChecks } from './page-checks';
import { toIndexedSnippet } from '../../search/mappings';
import { baseOf, type ServedGeneration } from '../../search/served';

export interface PublishInput {
  libraryId: string;
  version: string;
  ref: string;
  tags: string[];
  commit: string;
  generation: number;
  /** The snippets this build writes: all of them, or with `amend` those of changed and added files. */
  snippets: SnippetDocument[];
  /**
   * A refresh of a served version that writes only what changed: the served generation it
   * amends and the files whose served snippets stay (unchanged, still selected). Every other
   * served snippet is retired. Absent: a full build.
   */
  amend?: {
    served: ServedGeneration;
    keep: string[];
    /**
     * The served generation's figures per snippet path (its manifest's): the kept files' are
     * summed with the written snippets' for the totals. Absent: the kept snippets are read.
     */
    figures?: FileFigures[];
  };
  files: { p: string; h: string }[];
  /** The content checks' verdicts of every document (pipeline/pages.ts), for the next refresh. */
  checked?: PageChecks;
  meta: Partial<Pick<LibraryRecord, 'title' | 'description' | 'branch'>>;
}

export interface PublishDeps {
  store: SnippetStore;
  libraries: LibraryRepository;
  manifests: ManifestStore;
}

export interface PublishResult {
  totalSnippets: number;
  totalTokens: number;
  benchmarkScore: number;
  /** Documents written by this build. */
  written: number;
  /** Served documents this build retired (0 for a full build, which retires by its base). */
  retired: number;
  /** Where the time went (ms): writing and marking (one bulk stream), the totals, the switch. */
  ms: { write: number; totals: number; switch: number };
}

/** The fields totals and the quality report read from the snippets a refresh kept, when the manifest holds no figures. */
const TOTALS_FIELDS = [
  'kind',
  'title',
  'description',
  'language',
  'code',
  'content',
  'path',
  'breadcrumb',
  'tokens',
] as const satisfies readonly (keyof SnippetDocument)[];

export async function publishGeneration(deps: PublishDeps, input: PublishInput, onProgress?: (written: number) => void): Promise<PublishResult> {
  const { libraryId, version, generation } = input;
  const docs = input.snippets.map((s) => toIndexedSnippet({ ...s, generation }));
  const base = input.amend ? baseOf(input.amend.served) : generation;
  let retired = 0;
  const ms = { write: 0, totals: 0, switch: 0 };
  let t = Date.now();
  const lap = (step: keyof typeof ms) => {
    ms[step] = Date.now() - t;
    t = Date.now();
  };
  // What the version will serve besides what this build writes: the served snippets of the
  // kept files (exactly those marking leaves alone). Their figures come from the manifest;
  // without them (an older manifest) the snippets are read while the writes run.
  const amend = input.amend;
  const keep = new Set(amend?.keep ?? []);
  const kept: Promise<FileFigures[]> = !amend
    ? Promise.resolve([])
    : amend.figures
      ? Promise.resolve(amend.figures.filter((f) => keep.has(f.p)))
      : deps.store
          .read({ libraryId, version, generation: amend.served.generation, baseGeneration: baseOf(amend.served), paths: amend.keep, fields: TOTALS_FIELDS })
          .then(figuresByFile);
  kept.catch(() => undefined); // awaited below; a failure before then must not go unhandled
  let figures: FileFigures[];
  try {
    if (amend) retired = await deps.store.writeRetiring(docs, { libraryId, version, served: amend.served, keep: amend.keep }, generation, onProgress);
    else await deps.store.write(docs, onProgress);
    lap('write');
    figures = [...(await kept), ...figuresByFile(docs)];
  } catch (error) {
    await deps.store.undoBuild({ libraryId, version, generation });
    throw error;
  }
  const totals = totalsFromFigures(figures);
  lap('totals');
  await switchGenerations(
    deps,
    libraryId,
    [
      {
        record: {
          version,
          ref: input.ref,
          tags: input.tags,
          commit: input.commit,
          generation,
          baseGeneration: base,
          state: 'finalized',
          totalSnippets: totals.totalSnippets,
          totalTokens: totals.totalTokens,
          benchmarkScore: totals.quality.score,
          qualityIssues: totals.quality.issues,
          lastUpdateDate: new Date(),
        },
        files: input.files,
        figures,
        ...(input.checked ? { checked: input.checked } : {}),
      },
    ],
    input.meta,
  );
  lap('switch');
  return { totalSnippets: totals.totalSnippets, totalTokens: totals.totalTokens, benchmarkScore: totals.quality.score, written: docs.length, retired, ms };
}

/**
 * Makes generations already written visible: switches every listed version in one update of
 * the library record, records their manifests and deletes what they no longer serve. When
 * the switch does not happen (the library was deleted, a newer build of a version was
 * published meanwhile, or the store failed) what the builds wrote and marked is undone and
 * it throws.
 */
export async function switchGenerations(
  deps: PublishDeps,
  libraryId: string,
  versions: Array<{ record: LibraryVersionRecord; files: { p: string; h: string }[]; figures?: FileFigures[]; checked?: PageChecks }>,
  meta: PublishInput['meta'],
): Promise<void> {
  const undo = async () => {
    for (const v of versions) await deps.store.undoBuild({ libraryId, version: v.record.version, generation: v.record.generation });
  };
  // The manifests are written while the record switches (a large library's figures and
  // checks take a while to store). One naming a generation that is not served is never used
  // (a build reads the manifest only at the served generation), so a switch that does not
  // happen leaves at worst a manifest the next build ignores, as after a crash.
  const manifests = Promise.all(versions.map((v) => recordManifest(deps, libraryId, v)));
  manifests.catch(() => undefined); // awaited below; a failure before then must not go unhandled
  let published: LibraryRecord | null;
  try {
    published = await deps.libraries.publishVersions(
      libraryId,
      versions.map((v) => v.record),
      meta,
    );
  } catch (error) {
    // An answer lost after the write would leave the record serving what we undo: look first.
    const now = await deps.libraries.get(libraryId, { fresh: true }).catch(() => undefined);
    const switched = now && versions.every((v) => now.versions.some((p) => p.version === v.record.version && p.generation === v.record.generation));
    if (!switched) {
      if (now !== undefined) await undo();
      throw error;
    }
    published = now;
  }
  if (!published) {
    // The library was deleted while building: drop what was written.
    await manifests.catch(() => undefined);
    await deps.manifests.deleteVersions(
      libraryId,
      versions.map((v) => v.record.version),
      { only: true },
    );
    await deps.store.deleteGenerations({ libraryId });
    throw new Error(`library ${libraryId} was deleted during indexing`);
  }
  const stale = versions.find((v) => published.versions.find((p) => p.version === v.record.version)?.generation !== v.record.generation);
  if (stale) {
    // A newer build of this version was published meanwhile (builds are serialised by the
    // version's build slot, so this is a safety net): ours is not served; undo it.
    await undo();
    throw new Error(`a newer build of ${libraryId} (${stale.record.version}) was published meanwhile`);
  }
  await manifests;
  for (const v of versions) {
    // What the new generation no longer serves; a newer one being written is not touched.
    // A full build's predecessor goes at once (a reader still holding the old record finds
    // nothing and reads the record again); what a refresh retired goes a little later, so
    // such a reader keeps getting the whole previous version, not it minus the replaced files.
    const scope = { libraryId, version: v.record.version, served: v.record };
    if (baseOf(v.record) === v.record.generation) await deps.store.collect(scope);
    else deps.store.collectLater(scope);
  }
}

/** Records what a generation was made of (files, figures, page checks) in its version's manifest. */
function recordManifest(
  deps: PublishDeps,
  libraryId: string,
  v: { record: LibraryVersionRecord; files: { p: string; h: string }[]; figures?: FileFigures[]; checked?: PageChecks },
): Promise<void> {
  return deps.manifests.record(libraryId, v.record.version, {
    generation: v.record.generation,
    files: v.files,
    ...(v.figures ? { figures: { files: v.figures, version: FIGURES_VERSION } } : {}),
    ...(v.checked ? { checked: v.checked } : {}),
  });
}

/**
 * A new generation number: time-based, so it grows across instances without a counter; above
 * the served one (`after`) even when this instance's clock is behind the one that built it,
 * since a build's documents must sort above everything the version serves until it switches.
 */
export function newGeneration(after = 0): number {
  return Math.max(Date.now(), after + 1);
}
