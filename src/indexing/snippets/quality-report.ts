/**
 * A library version's totals and quality report (`benchmarkScore`, `qualityIssues`), computed
 * from per-file figures: what the checks of quality.ts found in each file's snippets, summed.
 * A build keeps each file's figures in the version's manifest, so a refresh that writes only
 * the changed files' snippets sums the kept files' figures instead of reading their snippets
 * back (pipeline/publish.ts), and gets exactly what a full build of the same snippets gets:
 * every figure is a count or a sum of multiples of 0.5, so the order of the sums cannot change
 * a result, and the one check that spans files (duplicates) works on the files' key hashes.
 */
import { createHash } from 'node:crypto';
import type { SnippetDocument } from '../../search/types';
import type { StoredFileFigures } from '../../store/models/manifest';
import { duplicateKey } from './fidelity';
import {
  FIDELITY_CHECKS,
  QUALITY_CHECKS,
  fidelityIssues,
  possibleWeight,
  snippetIssues,
  type CheckedSnippet,
  type FidelityIssue,
  type QualityReport,
  type SnippetIssue,
} from './quality';

/**
 * The version of the figures' meaning: bump it when a check of quality.ts or fidelity.ts
 * changes, so figures a manifest kept under the old checks are not summed with new ones (the
 * next refresh then reads the kept snippets and records figures again).
 */
// 2: section snippets (prose with its examples): fidelity checks read prose without the fences, duplicates compare whole sections.
// 3: leftover markup is not looked for inside inline code.
export const FIGURES_VERSION = 3;

/** What the totals and the report need of the snippets of one file, as the manifest keeps it. */
export interface FileFigures extends StoredFileFigures {
  /** Snippets failing each check, `duplicate` aside (absent checks: none; the store drops an empty object). */
  i?: Partial<Record<SnippetIssue | FidelityIssue, number>>;
}

/** The fields a snippet's figures are computed from. */
export type FiguredSnippet = CheckedSnippet & Pick<SnippetDocument, 'tokens'>;

export interface VersionTotals {
  totalSnippets: number;
  totalTokens: number;
  quality: QualityReport;
}

const KEY_CHARS = 11;
const ENTRY = KEY_CHARS + 1;
/** Shorter keys (a one-word snippet) are not counted as duplicates. */
const MIN_KEY = 20;

/** Each path's figures, in the order paths first appear. */
export function figuresByFile(snippets: readonly FiguredSnippet[]): FileFigures[] {
  const byPath = new Map<string, FileFigures>();
  for (const s of snippets) {
    let f = byPath.get(s.path);
    if (!f) {
      f = { p: s.path, n: 0, c: 0, t: 0, w: 0, l: 0, f: 0, i: {}, d: '' };
      byPath.set(s.path, f);
    }
    f.n++;
    const issues = (f.i ??= {});
    if (s.kind === 'code') f.c++;
    f.t += s.tokens;
    f.w += possibleWeight(s);
    for (const issue of snippetIssues(s)) {
      f.l += QUALITY_CHECKS[issue].weight;
      issues[issue] = (issues[issue] ?? 0) + 1;
    }
    const fidelity = fidelityIssues(s);
    const cost = fidelity.reduce((sum, issue) => sum + FIDELITY_CHECKS[issue], 0);
    for (const issue of fidelity) issues[issue] = (issues[issue] ?? 0) + 1;
    f.f += Math.min(1, cost);
    const key = duplicateKey(s);
    if (key.length >= MIN_KEY) f.d += keyHash(key) + (cost < 1 ? '1' : '0');
  }
  return [...byPath.values()];
}

/**
 * Totals and report of the snippets the figures describe. Of snippets with the same duplicate
 * key all but one are duplicates; the one not marked is one a mark would cost (if any), so the
 * result does not depend on the order of the snippets or files.
 */
export function totalsFromFigures(files: readonly FileFigures[]): VersionTotals {
  let n = 0;
  let tokens = 0;
  let possible = 0;
  let lost = 0;
  let fidelityLost = 0;
  const counts = new Map<SnippetIssue | FidelityIssue, number>();
  /** Per duplicate key: snippets, and how many of them a mark would cost. */
  const keys = new Map<string, { all: number; costly: number }>();
  for (const f of files) {
    n += f.n;
    tokens += f.t;
    possible += f.w;
    lost += f.l;
    fidelityLost += f.f;
    for (const [issue, count] of Object.entries(f.i ?? {}) as [SnippetIssue | FidelityIssue, number][]) counts.set(issue, (counts.get(issue) ?? 0) + count);
    for (let at = 0; at + ENTRY <= f.d.length; at += ENTRY) {
      const key = f.d.slice(at, at + KEY_CHARS);
      const entry = keys.get(key) ?? { all: 0, costly: 0 };
      entry.all++;
      if (f.d[at + KEY_CHARS] === '1') entry.costly++;
      keys.set(key, entry);
    }
  }
  let duplicates = 0;
  for (const { all, costly } of keys.values()) {
    if (all < 2) continue;
    duplicates += all - 1;
    fidelityLost += FIDELITY_CHECKS.duplicate * Math.max(0, costly - 1);
  }
  if (duplicates > 0) counts.set('duplicate', duplicates);
  if (n === 0) return { totalSnippets: 0, totalTokens: 0, quality: { score: 0, issues: [] } };
  const passRate = (possible - lost) / possible;
  const factor = 1 - fidelityLost / n;
  return {
    totalSnippets: n,
    totalTokens: tokens,
    quality: {
      score: Math.round(1000 * passRate * factor) / 10,
      issues: [...counts].map(([issue, count]) => ({ issue, snippets: count })).sort((a, b) => b.snippets - a.snippets || a.issue.localeCompare(b.issue)),
    },
  };
}

/**
 * 0–100 with one decimal: the average of the snippets' weighted pass rates, each snippet
 * weighing as much as its applicable checks (so code snippets, with eight checks, count
 * more than info snippets with three), times the fidelity factor: 1 minus the average
 * cost of the fidelity checks a snippet fails (capped at one snippet's worth). So a
 * library whose snippets are half placeholders scores about half, however clean they
 * look otherwise. No snippets score 0.
 */
export function qualityReport(snippets: readonly CheckedSnippet[]): QualityReport {
  return totalsFromFigures(figuresByFile(snippets.map((s) => ({ ...s, tokens: 0 })))).quality;
}

/** See `qualityReport`. */
export function benchmarkScore(snippets: readonly CheckedSnippet[]): number {
  return qualityReport(snippets).score;
}

/** 66 bits of the key's SHA-1: a collision among a library's keys is out of reach. */
function keyHash(key: string): string {
  return createHash('sha1').update(key).digest('base64url').slice(0, KEY_CHARS);
}
