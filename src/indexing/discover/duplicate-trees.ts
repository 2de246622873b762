/**
 * Near-duplicate pages across folders: a print or exported copy of a book beside its
 * sources (rust-lang/book's `nostarch/` beside `src/`), a docs folder mirrored into a site
 * folder. Pages are compared on their prose (code and include directives aside, since the
 * copy often holds the code the source includes) by the Jaccard similarity of word
 * 3-shingles; of each group of near-duplicates one page is kept: the source form (a page
 * with include directives, under a folder with a docs configuration, not under a print or
 * output folder), then the shallower path.
 */
import path from 'node:path';
import { jaccard, normaliseForDedupe, shingleHashes } from '../../util/shingles';
import { proseOf } from './language';

export interface PageText {
  path: string;
  text: string;
}

/** Similarity at or above which two pages are the same page. */
const THRESHOLD = 0.8;
/** A page in a copy folder whose shingles are this much found in source pages is a copy of them. */
const CONTAINED = 0.7;
/** Pages with less prose than this are not compared (short index pages look alike on purpose). */
const MIN_PROSE = 300;
/** Pages compared per bucket of a shared minimum shingle hash (keeps the work near linear). */
export const BUCKET_SCAN = 64;
const SKETCH = 4;

const COPY_FOLDER = /^(nostarch|print|printed|pdf|epub|mobi|export|exported|rendered|output|html|_site|site-output|book-output|generated|copy|backup)$/i;
const INCLUDE = /\{\{#(?:include|rustdoc_include)|^\s*-{1,}8<-|\.\.\s+(?:literal)?include::|^include::/m;
const DOCS_CONFIG = /(^|\/)(SUMMARY\.md|book\.toml|mkdocs\.ya?ml|conf\.py|antora\.ya?ml|docusaurus\.config\.[cm]?[jt]s)$/;

/** Whether a page sits in a print, export or output folder (compared by containment, see below). */
export function inCopyFolder(page: string): boolean {
  return path.posix
    .dirname(page)
    .split('/')
    .some((d) => COPY_FOLDER.test(d));
}

/** The folders holding a docs configuration (they rank the pages under them as sources). */
export function docsConfigFolders(allPaths: readonly string[]): string[] {
  return [...new Set(allPaths.filter((p) => DOCS_CONFIG.test(p)).map((p) => path.posix.dirname(p)))].sort();
}

/** The shingles a page is compared by, or undefined when it is too short to be compared. */
function proseShingles(text: string): Uint32Array | undefined {
  const prose = normaliseForDedupe(proseOf(text).replace(/\{\{#[^}]*\}\}/g, ' '));
  if (prose.length < MIN_PROSE) return undefined;
  const shingles = shingleHashes(prose);
  return shingles.length > 0 ? shingles : undefined;
}

/**
 * Whether any page of `changed` is as similar as a copy to any page of `others` (folders
 * aside: a cautious answer for pipeline/page-checks.ts).
 */
export function anyNearDuplicate(changed: readonly PageText[], others: readonly PageText[], threshold = THRESHOLD): boolean {
  const a = changed.map((p) => proseShingles(p.text)).filter((s): s is Uint32Array => s !== undefined);
  if (a.length === 0) return false;
  return others.some((o) => {
    const b = proseShingles(o.text);
    return b !== undefined && a.some((s) => jaccard(s, b, threshold) >= threshold);
  });
}

/**
 * The pages to leave out, each with the copy that is kept. `allPaths` are every file of the
 * commit (to find folders holding a docs configuration).
 */
export function nearDuplicatePages(pages: readonly PageText[], allPaths: readonly string[], threshold = THRESHOLD): Map<string, string> {
  return duplicateCheck(pages, allPaths, threshold).copies;
}

/**
 * `nearDuplicatePages`, with each compared page's sketch: the smallest shingle hashes, the
 * buckets through which alone two pages outside copy folders are ever compared. Pages whose
 * sketches share no hash cannot change each other's verdicts (pipeline/page-checks.ts relies
 * on it to judge only the pages that changed).
 */
export function duplicateCheck(
  pages: readonly PageText[],
  allPaths: readonly string[],
  threshold = THRESHOLD,
): { copies: Map<string, string>; sketches: Map<string, number[]> } {
  const sketches = new Map<string, number[]>();
  // A stricter threshold from the config makes containment stricter too.
  const contained = Math.max(CONTAINED, threshold - 0.1);
  const configDirs = new Set(docsConfigFolders(allPaths));
  const rank = (p: PageText): number => {
    const dirs = path.posix.dirname(p.path).split('/');
    let score = dirs.filter((d) => COPY_FOLDER.test(d)).length * 4;
    if (INCLUDE.test(p.text)) score -= 1;
    if (configDirs.has('.') || dirs.some((_, i) => configDirs.has(dirs.slice(0, i + 1).join('/')))) score -= 2;
    return score + dirs.length * 0.1;
  };
  const ordered = [...pages].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
  const kept: { path: string; shingles: Uint32Array }[] = [];
  const buckets = new Map<number, number[]>();
  const dropped = new Map<string, string>();
  // Shingles of kept pages outside copy folders, with a page holding each: a print copy
  // often joins several source pages into one chapter, so it is compared by containment.
  const sourceShingles = new Map<number, string>();
  for (const page of ordered) {
    const shingles = proseShingles(page.text);
    if (!shingles) continue;
    const sketch = shingles.subarray(0, SKETCH);
    sketches.set(page.path, Array.from(sketch));
    const copyFolder = inCopyFolder(page.path);
    if (copyFolder) {
      const owners = new Map<string, number>();
      let covered = 0;
      for (const h of shingles) {
        const owner = sourceShingles.get(h);
        if (owner === undefined) continue;
        covered++;
        owners.set(owner, (owners.get(owner) ?? 0) + 1);
      }
      if (covered / shingles.length >= contained) {
        dropped.set(page.path, [...owners].sort((a, b) => b[1] - a[1])[0][0]);
        continue;
      }
    }
    const seen = new Set<number>();
    let twin: string | undefined;
    for (const h of sketch) {
      const members = buckets.get(h) ?? [];
      for (let j = members.length - 1; j >= Math.max(0, members.length - BUCKET_SCAN) && !twin; j--) {
        const other = kept[members[j]];
        if (seen.has(members[j]) || path.posix.dirname(other.path) === path.posix.dirname(page.path)) continue;
        seen.add(members[j]);
        if (jaccard(shingles, other.shingles, threshold) >= threshold) twin = other.path;
      }
      if (twin) break;
    }
    if (twin) {
      dropped.set(page.path, twin);
      continue;
    }
    if (!copyFolder) for (const h of shingles) if (!sourceShingles.has(h)) sourceShingles.set(h, page.path);
    const index = kept.push({ path: page.path, shingles }) - 1;
    for (const h of sketch) buckets.set(h, [...(buckets.get(h) ?? []), index]);
  }
  return { copies: dropped, sketches };
}
