/**
 * What the content checks of a build decided about each page (pipeline/pages.ts), kept in the
 * version's manifest so a refresh need not read the pages that did not change.
 *
 * A redirect stub is judged on the page's text alone: the verdict stands while its content
 * hash does. Whether a page is a copy depends on the others (discover/duplicate-trees.ts),
 * but only through its sketch: two pages outside copy folders are compared only when their
 * sketches share a hash. So when no page is in a copy folder and the sketches of the pages
 * that changed (their new texts and their previous ones) share no hash with the unchanged
 * pages' sketches, the unchanged pages' verdicts are the ones a check of every page would
 * give, and judging the changed pages among themselves gives theirs. Otherwise every page is
 * read and judged, as a full build does. Pure; no store or file access.
 */
import { createHash } from 'node:crypto';
import type { RepoConfig } from '../discover/config';
import { docsConfigFolders, inCopyFolder } from '../discover/duplicate-trees';
import type { ListedDocument } from '../sources/source';

/** Bump when a check changes, so verdicts kept under the old rules are not reused. */
const CHECKS_VERSION = 1;

/** One selected document of a build and what the content checks decided. */
export interface PageCheck {
  /** Path. */
  p: string;
  /** Content hash (the document's own: a blob id, not a hash with its includes). */
  h: string;
  /**
   * Left out: a redirect stub, a copy of `c`, unreadable (binary, not UTF-8, too large), or
   * not judged (reused without being read: a web page that answered 304). Absent: a page.
   */
  x?: 'stub' | 'copy' | 'unreadable' | 'unjudged';
  /** A copy's kept twin. */
  c?: string;
  /** The page's similarity sketch, when it was compared with the others. */
  k?: number[];
}

export interface PageChecks {
  /** The settings the verdicts depend on (`checksKey`): verdicts under another key are not reused. */
  key: string;
  pages: PageCheck[];
}

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
 * Whether the unchanged pages' verdicts stand beside the changed pages (see the top of this
 * file): no page of either build in a copy folder, and no sketch hash of a changed page
 * (`changedSketches`, its new text) or of a replaced entry shared with an unchanged page.
 */
export function verdictsStand(split: ChecksAgainstPrevious, changedSketches: Iterable<number[]>): boolean {
  const paths = [...split.unchanged.map((c) => c.p), ...split.changed.map((d) => d.path), ...split.replaced.map((c) => c.p)];
  if (paths.some(inCopyFolder)) return false;
  const unchangedHashes = new Set<number>();
  for (const c of split.unchanged) for (const h of c.k ?? []) unchangedHashes.add(h);
  for (const sketch of [...changedSketches, ...split.replaced.map((c) => c.k ?? [])]) {
    if (sketch.some((h) => unchangedHashes.has(h))) return false;
  }
  return true;
}

/** The previous documents' own content hashes by path, for the job's file counts. */
export function previousDocumentHashes(checks: PageChecks | undefined, files: readonly { p: string; h: string }[]): Map<string, string> {
  // Older manifests hold no checks: their files (a page with includes under `<blob>+<hash>`).
  if (!checks) return new Map(files.map((f) => [f.p, f.h.split('+')[0]]));
  return new Map(checks.pages.map((c) => [c.p, c.h]));
}
