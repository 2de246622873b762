/**
 * Catalogue ranking for `GET /v2/libs/search` and `resolve-library-id`: how well a library's
 * names match the name asked for (exact id, title, repository name, aliases; case- and
 * punctuation-insensitive; common suffixes like ".js" or ".com" ignored; prefixes; typos),
 * then how well its content answers the query, then quality signals as tie-breakers.
 */
import type { LibrarySummary } from './types';
import { SEARCH_WEIGHTS, type CatalogWeights } from './weights';

export interface RankLibrariesInput {
  libraryName: string;
  /** The question; it counts through `contentScores` (see queries/libraries.ts). */
  query?: string;
  /** The candidates (unless `matches` holds their matches already). */
  libraries?: readonly LibrarySummary[];
  /** Content scores by library id (any positive scale; normalised by the best). */
  contentScores?: ReadonlyMap<string, number>;
  /** `matchLibraryNames` of these libraries when the caller has it already (it is not computed again). */
  matches?: readonly RankedLibrary[];
}

export interface RankedLibrary {
  library: LibrarySummary;
  score: number;
}

/** Lowercase letters and digits only, accents removed: "Next.js" → "nextjs". */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** The name without the decorations projects add: ".com"/".dev" sites, "js" suffixes, "docs". */
export function coreName(name: string): string {
  const lower = name
    .toLowerCase()
    .trim()
    .replace(/\.(com|org|io|dev|net)$/, '')
    .replace(/[-_. ]?docs?$|^docs?[-_. ]/, '');
  const normal = normalizeName(lower);
  return normal.length > 4 && normal.endsWith('js') ? normal.slice(0, -2) : normal;
}

/** Optimal-string-alignment distance (Damerau-Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0 || b.length === 0) return Math.max(a.length, b.length);
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, prevPrev[j - 2] + 1);
      row.push(best);
    }
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length];
}

/**
 * Typos allowed between two names: none below 4 letters; for 4 letters only a missing or
 * extra letter ("flsk" → "flask"), since a changed letter there is usually another real
 * name ("nest" is not "next"); 1 up to 7 letters, 2 from 8.
 */
export function allowedTypos(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  if (length < 4) return 0;
  if (length === 4) return a.length === b.length ? 0 : 1;
  return length < 8 ? 1 : 2;
}

/** `https://github.com/Owner/Repo`, `owner/repo`, `/owner/repo/v1` → `/owner/repo` (lowercase); undefined for a plain name. */
export function asLibraryId(name: string): string | undefined {
  const path = name
    .trim()
    .replace(/^[a-z]+:\/\/[^/]+/i, '')
    .replace(/\.git$/, '');
  const segments = path.split('/').filter((s) => s !== '');
  return segments.length >= 2 ? `/${segments[0]}/${segments[1].split('@')[0]}`.toLowerCase() : undefined;
}

export interface NameForms {
  normal: string;
  core: string;
  words: string[];
}

/** The forms a name is compared in: normalised, core (decorations off) and its words. */
export function formsOf(name: string): NameForms {
  const words = name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  return { normal: normalizeName(name), core: coreName(name), words };
}

/** 0..1: how well one of the library's names matches the name asked for. */
export function nameMatchScore(libraryName: string, library: LibrarySummary): number {
  return nameScorer(libraryName)(library);
}

/**
 * The name score of `nameMatchScore` for one name asked, its forms read once: what a search
 * applies to each of its candidates.
 */
function nameScorer(libraryName: string): (library: LibrarySummary) => number {
  const asked = formsOf(libraryName);
  const askedId = asLibraryId(libraryName);
  return (library) => {
    if (asked.normal === '') return 0;
    if (askedId !== undefined && askedId === library.id.toLowerCase()) return 1;
    const [owner = '', repo = ''] = library.id.split('/').filter((s) => s !== '');
    const names = [library.title, repo, ...(library.aliases ?? [])].filter((n) => n.trim() !== '').map(formsOf);
    let best = 0;
    const consider = (score: number): void => {
      best = Math.max(best, score);
    };
    for (const name of names) {
      if (name.normal === asked.normal) consider(0.95);
      if (name.core === asked.core || name.core === asked.normal || name.normal === asked.core) consider(0.9);
      if (asked.words.length > 1 && asked.words.includes(name.core)) consider(0.75);
      if (asked.core.length >= 3 && name.normal.startsWith(asked.core)) consider(0.5 + 0.25 * (asked.core.length / name.normal.length));
      if (name.core.length >= 3 && asked.normal.startsWith(name.core)) consider(0.45 + 0.2 * (name.core.length / asked.normal.length));
      if (asked.words.length > 0 && asked.words.every((w) => name.words.includes(w))) consider(0.5);
      const distance = editDistance(asked.core, name.core);
      if (distance > 0 && distance <= allowedTypos(asked.core, name.core)) consider(0.7 - 0.1 * distance);
    }
    const ownerForms = formsOf(owner);
    // Below the padding line beside an exact name: an owner alone is a weak sign.
    if (ownerForms.normal === asked.normal || ownerForms.core === asked.core) consider(0.55);
    return best;
  };
}

/** 0..1-ish: the quality signals that order libraries whose names and content match alike. */
export function qualityScore(library: LibrarySummary, w: CatalogWeights = SEARCH_WEIGHTS.catalog): number {
  const trust = Math.max(0, Math.min(10, library.trustScore ?? 0)) / 10;
  const benchmark = Math.max(0, Math.min(100, library.benchmarkScore)) / 100;
  const snippets = Math.min(1, Math.log10(1 + Math.max(0, library.totalSnippets)) / 5);
  return w.trust * trust + w.benchmark * benchmark + w.snippets * snippets;
}

/**
 * Ranks catalogue entries for a name and an optional question, best first. Only libraries
 * whose name, id or alias matches are answers: a library whose content merely mentions the
 * words would send an assistant off with the wrong docs (that is a 404 with suggestions,
 * see `suggestLibraries`). Matches far weaker than the best one are padding and are cut
 * (a typo or owner match beside an exact one); content only reorders what is left.
 */
export function rankLibraries(input: RankLibrariesInput, weights: CatalogWeights = SEARCH_WEIGHTS.catalog): RankedLibrary[] {
  const matches = input.matches ?? matchLibraryNames(input.libraryName, input.libraries ?? [], weights);
  let maxContent = 0;
  for (const m of matches) maxContent = Math.max(maxContent, input.contentScores?.get(m.library.id) ?? 0);
  return matches
    .map(({ library, score: name }) => {
      const content = maxContent > 0 ? Math.max(0, input.contentScores?.get(library.id) ?? 0) / maxContent : 0;
      return { library, score: weights.name * name + weights.content * content + qualityScore(library, weights) };
    })
    .sort((a, b) => b.score - a.score || a.library.id.localeCompare(b.library.id));
}

/**
 * The libraries whose names match, with their name scores, padding cut: a match below
 * `weights.padding` × the best name score is dropped. Pure and cheap (no store), so the
 * search asks Elasticsearch about content only when several names match.
 */
export function matchLibraryNames(
  libraryName: string,
  libraries: readonly LibrarySummary[],
  weights: CatalogWeights = SEARCH_WEIGHTS.catalog,
): RankedLibrary[] {
  const score = nameScorer(libraryName);
  const scored = libraries.map((library) => ({ library, score: score(library) })).filter((m) => m.score > 0);
  const best = Math.max(0, ...scored.map((m) => m.score));
  return scored.filter((m) => m.score >= best * weights.padding);
}

/**
 * Names close to one nobody matched, for the 404 message: the catalogue's names within a
 * loose edit distance (a third of the longer name) or sharing a word, nearest first.
 */
export function suggestLibraries(libraryName: string, libraries: readonly LibrarySummary[], limit = 3): string[] {
  const asked = formsOf(libraryName);
  if (asked.core === '') return [];
  const near: Array<{ id: string; distance: number }> = [];
  for (const library of libraries) {
    const repo = library.id.split('/').filter((s) => s !== '')[1] ?? '';
    let distance = Infinity;
    for (const name of [library.title, repo, ...(library.aliases ?? [])].filter((n) => n.trim() !== '').map(formsOf)) {
      const d = editDistance(asked.core, name.core);
      if (d <= Math.floor(Math.max(asked.core.length, name.core.length) / 3)) distance = Math.min(distance, d);
      if (asked.words.some((w) => w.length >= 3 && name.words.includes(w))) distance = Math.min(distance, asked.core.length);
    }
    if (Number.isFinite(distance)) near.push({ id: library.id, distance });
  }
  return near
    .sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((n) => n.id);
}
