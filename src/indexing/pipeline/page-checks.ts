/**
 * What the content checks of a build decided about each page (pipeline/pages.ts), kept in the
 * version's manifest so a refresh need not read the pages that did not change.
 *
 * A redirect stub is judged on the page's text alone: the verdict stands while its content
 * hash does. Whether a page is a copy depends on the others (discover/duplicate-trees.ts),
 * but two pages outside copy folders are compared only when their sketches (smallest
 * shingle hashes) share a hash, at most BUCKET_SCAN pages back per hash, and a comparison
 * changes a verdict only when the two are as similar as copies. So the unchanged pages keep
 * the verdicts a check of every page would give, and judging the changed pages among
 * themselves gives theirs, when:
 * - no page of either build is in a copy folder (those are compared by containment);
 * - no hash of a changed page's sketch (new or previous) is shared by more than BUCKET_SCAN
 *   pages (a new page cannot push another out of a bucket's window, nor a gone one let it in);
 * - no unchanged page was a copy of a page that changed or went;
 * - no changed page (new text) is as similar as a copy to an unchanged page sharing a hash
 *   with it (those few neighbours are read and compared).
 * Otherwise every page is read and judged, as a full build does. Pure; no store or file access.
 */
import { createHash } from 'node:crypto';
import type { RepoConfig } from '../discover/config';
import { BUCKET_SCAN, docsConfigFolders, inCopyFolder } from '../discover/duplicate-trees';
import type { ListedDocument } from '../sources/source';
import type { PageCheck, PageChecks } from '../../store/models/manifest';

/** Bump when a check changes, so verdicts kept under the old rules are not reused. */
const CHECKS_VERSION = 1;

export type { PageCheck, PageChecks } from '../../store/models/manifest';

/**
 * The settings besides each page's text that the verdicts depend on: the repository's
 * switches for stubs and copies, and the folders holding a docs configuration (they rank the
 * copies).
 */
export function checksKey(config: RepoConfig, allPaths: readonly string[]): string {
  const settings = {
    v: CHECKS_VERSION,
    stubs: config.defaultExclusions?.redirectStubs !== false,
    copies: config.duplicatePages ?? null,
    configFolders: docsConfigFolders(allPaths),
  };
  return createHash('sha1').update(JSON.stringify(settings)).digest('base64url');
}

export interface ChecksAgainstPrevious {
  /** Documents whose previous verdict (stub, copy or page) still holds if `verdictsStand`. */
  unchanged: PageCheck[];
  /** Documents to read and judge: new, changed, or not judged last time (unreadable, unjudged). */
  changed: ListedDocument[];
  /** Previous entries of documents changed or gone (their old sketches). */
  replaced: PageCheck[];
}

/** Splits a build's documents (none `reuseOnly`) by whether their previous verdict can stand. */
export function againstPrevious(documents: readonly ListedDocument[], previous: PageChecks): ChecksAgainstPrevious {
  const before = new Map(previous.pages.map((c) => [c.p, c]));
  const unchanged: PageCheck[] = [];
  const changed: ListedDocument[] = [];
  const kept = new Set<string>();
  for (const d of documents) {
    const c = before.get(d.path);
    if (c && c.h === d.hash && c.x !== 'unreadable' && c.x !== 'unjudged') {
      unchanged.push(c);
      kept.add(d.path);
    } else changed.push(d);
  }
  const replaced = previous.pages.filter((c) => !kept.has(c.p));
  return { unchanged, changed, replaced };
}

/**
 * The unchanged pages that share a sketch hash with a changed page's new text
 * (`changedSketches`): the verdicts of the unchanged pages stand if none of these is as
 * similar as a copy to a changed page. Undefined when the verdicts cannot be shown to stand
 * this way (see the top of this file): every page must then be checked.
 */
export function neighboursToCompare(split: ChecksAgainstPrevious, changedSketches: Iterable<number[]>): string[] | undefined {
  const paths = [...split.unchanged.map((c) => c.p), ...split.changed.map((d) => d.path), ...split.replaced.map((c) => c.p)];
  if (paths.some(inCopyFolder)) return undefined;
  const gone = new Set(split.replaced.map((c) => c.p));
  if (split.unchanged.some((c) => c.x === 'copy' && c.c !== undefined && gone.has(c.c))) return undefined;
  const fresh = [...changedSketches];
  const members = new Map<number, number>();
  for (const sketch of [...split.unchanged.map((c) => c.k ?? []), ...split.replaced.map((c) => c.k ?? []), ...fresh]) {
    for (const h of new Set(sketch)) members.set(h, (members.get(h) ?? 0) + 1);
  }
  const touched = new Set([...fresh, ...split.replaced.map((c) => c.k ?? [])].flat());
  if ([...touched].some((h) => (members.get(h) ?? 0) > BUCKET_SCAN)) return undefined;
  const freshHashes = new Set(fresh.flat());
  return split.unchanged.filter((c) => c.k?.some((h) => freshHashes.has(h))).map((c) => c.p);
}

/** The previous documents' own content hashes by path, for the job's file counts. */
export function previousDocumentHashes(checks: PageChecks | undefined, files: readonly { p: string; h: string }[]): Map<string, string> {
  // Older manifests hold no checks: their files (a page with includes under `<blob>+<hash>`).
  if (!checks) return new Map(files.map((f) => [f.p, f.h.split('+')[0]]));
  return new Map(checks.pages.map((c) => [c.p, c.h]));
}
