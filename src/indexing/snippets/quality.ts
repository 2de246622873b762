/**
 * Library quality: the deterministic checks of one snippet behind `benchmarkScore` (the score
 * and report over a library are in quality-report.ts), and the default `trustScore` per source.
 */
import type { SnippetDocument } from '../../search/types';
import { isDirectoryTree, isImportOnly, isInstallOnly, isLicenceOrChangelog } from './checks';
import { hasLeftoverMarkup, hasPlaceholder, isNonEnglish } from './fidelity';

/** What the checks look at. `breadcrumb` helps recognise changelog sections when present. */
export type CheckedSnippet = Pick<SnippetDocument, 'kind' | 'title' | 'description' | 'language' | 'code' | 'content' | 'path'> &
  Partial<Pick<SnippetDocument, 'breadcrumb'>>;

/**
 * Default trust (0–10) of a library by where it comes from, until an admin sets another
 * (PATCH /v2/libraries/:owner/:repo). Repositories on GitHub, GitLab and Bitbucket (7) have a
 * public owner, history and issue tracker; an uploaded OpenAPI document (6) is a first-party
 * API description but nobody reviewed it; an arbitrary git URL or a local folder (5) is the
 * least known. Trust only orders search results among similar matches; it never hides docs.
 */
export const DEFAULT_TRUST_SCORES = {
  github: 7,
  gitlab: 7,
  bitbucket: 7,
  git: 5,
  openapi: 6,
  local: 5,
  // Pages fetched from a site or uploaded: nobody reviewed them as a repository's docs are.
  website: 5,
  llmstxt: 6,
  archive: 5,
} as const satisfies Record<string, number>;

/** The checks, with their weights in the score; info snippets get only those marked `all`. */
export const QUALITY_CHECKS = {
  'missing title': { weight: 1, all: true },
  'licence or changelog': { weight: 2, all: true },
  'directory tree': { weight: 2, all: true },
  'missing description': { weight: 1, all: false },
  'missing language': { weight: 1, all: false },
  'code too short': { weight: 1.5, all: false },
  'imports only': { weight: 1.5, all: false },
  'install command only': { weight: 1.5, all: false },
} as const;

export type SnippetIssue = keyof typeof QUALITY_CHECKS;

const CHECK_NAMES = Object.keys(QUALITY_CHECKS) as SnippetIssue[];
const WEIGHT_ALL = sumWeights((c) => QUALITY_CHECKS[c].all);
const WEIGHT_CODE = sumWeights(() => true);

/** Code shorter than this (and under three lines) teaches little. */
const MIN_CODE_CHARS = 80;
const MIN_CODE_LINES = 3;

/** The checks a snippet fails, in a fixed order (empty for a good snippet). */
export function snippetIssues(s: CheckedSnippet): SnippetIssue[] {
  const issues: SnippetIssue[] = [];
  const code = s.kind === 'code';
  if (!s.title.trim()) issues.push('missing title');
  if (isLicenceOrChangelog(s)) issues.push('licence or changelog');
  if (isDirectoryTree(code ? s.code : s.content)) issues.push('directory tree');
  if (!code) return issues;
  if (!s.description.trim()) issues.push('missing description');
  if (!s.language.trim()) issues.push('missing language');
  const lines = s.code.split('\n').filter((l) => l.trim() !== '').length;
  if (lines < MIN_CODE_LINES && s.code.trim().length < MIN_CODE_CHARS) issues.push('code too short');
  if (isImportOnly(s.code)) issues.push('imports only');
  if (isInstallOnly(s.code)) issues.push('install command only');
  return issues;
}

/**
 * Checks of fidelity to what the docs' readers see, with the share of a snippet they cost:
 * a placeholder or a page in another language is worth nothing to a reader of English docs;
 * leftover markup and a repeated snippet are half as bad.
 */
export const FIDELITY_CHECKS = {
  'unresolved placeholder': 1,
  'not English': 1,
  duplicate: 0.5,
  'leftover markup': 0.5,
} as const;

export type FidelityIssue = keyof typeof FIDELITY_CHECKS;

/** How many snippets fail each check, most frequent first (what the dashboard shows as "why"). */
export interface QualityReport {
  score: number;
  issues: { issue: SnippetIssue | FidelityIssue; snippets: number }[];
}

/** The weight of the checks that apply to a snippet (code snippets have all eight, info snippets three). */
export function possibleWeight(s: Pick<CheckedSnippet, 'kind'>): number {
  return s.kind === 'code' ? WEIGHT_CODE : WEIGHT_ALL;
}

/** The fidelity checks a snippet fails (`duplicate` is decided over the whole library). */
export function fidelityIssues(s: CheckedSnippet, duplicate = false): FidelityIssue[] {
  const issues: FidelityIssue[] = [];
  if (hasPlaceholder(s)) issues.push('unresolved placeholder');
  if (isNonEnglish(s)) issues.push('not English');
  if (duplicate) issues.push('duplicate');
  if (hasLeftoverMarkup(s)) issues.push('leftover markup');
  return issues;
}

function sumWeights(applies: (check: SnippetIssue) => boolean): number {
  return CHECK_NAMES.filter(applies).reduce((sum, c) => sum + QUALITY_CHECKS[c].weight, 0);
}
