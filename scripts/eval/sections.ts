/**
 * Snippet-level scoring of shared/eval/README.md ("Snippet-level scoring"): a returned snippet
 * is relevant when its path is a qrel's path and the qrel's section heading, normalised, is
 * the snippet's title or one of its breadcrumb headings, normalised. A qrel whose section is
 * "" matches a snippet of its file with at most one breadcrumb heading. Pure functions over
 * the snippets of one answer, in rank order.
 */

/** A section-level qrel: the file, its grade and the heading that owns the answer. */
export interface SectionQrel {
  path: string;
  grade: number;
  section: string;
}

/** What the scoring reads of one returned snippet. */
export interface ReturnedSnippet {
  path: string;
  title: string;
  breadcrumb: string[];
  tokens: number;
  /** For the answer-shape counts (answerShape): kind, first line, part, and whether it reads as a later chunk. */
  kind?: string;
  startLine?: number;
  part?: number;
  continued?: boolean;
}

/** How an answer is put together: sections served as prose and code twins, parts out of order or without their opening part. */
export interface AnswerShape {
  twins: number;
  partsOutOfOrder: number;
}

export function answerShape(snippets: readonly ReturnedSnippet[]): AnswerShape {
  const groups = new Map<string, ReturnedSnippet[]>();
  for (const s of snippets) {
    const key = `${s.path}\u0000${s.breadcrumb.join('\u0000')}\u0000${s.title}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  let twins = 0;
  let partsOutOfOrder = 0;
  for (const list of groups.values()) {
    // Parts of one long section may differ in kind (one with an example, one without); twins are the old prose/code split.
    if (list.some((s) => s.part === undefined) && new Set(list.map((s) => s.kind)).size > 1) twins++;
    if (list.some((s) => s.part !== undefined)) {
      // Section snippets: numbered parts, in order from part 0.
      const parts = list.map((s) => s.part ?? 0);
      if (parts[0] !== 0 || parts.some((p, i) => i > 0 && p < parts[i - 1]!)) partsOutOfOrder++;
    } else if (list.some((s) => s.continued)) {
      // The older shape: prose chunks, the later ones saying "(continued, part k of n)".
      const prose = list.filter((s) => s.kind !== 'code');
      if (prose[0]?.continued) partsOutOfOrder++;
    }
  }
  return { twins, partsOutOfOrder };
}

/**
 * The README's normalisation: lower-case; HTML tags, RST roles, `{#anchors}`, backslashes,
 * backticks, `*`, `_` and `~` removed; every other run of non-alphanumerics one space.
 */
export function normalizeHeading(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/:[a-z][\w.+-]*(?::[a-z][\w.+-]*)*:(?=`)/g, '')
    .replace(/\{\s*#[^}]*\}/g, '')
    .replace(/[\\`*_~]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The highest grade of a qrel this snippet answers, 0 when none. */
export function snippetGrade(snippet: ReturnedSnippet, qrels: readonly SectionQrel[]): number {
  let best = 0;
  let headings: Set<string> | undefined;
  for (const q of qrels) {
    if (q.path !== snippet.path || q.grade <= best) continue;
    if (q.section.trim() === '') {
      if (snippet.breadcrumb.length <= 1) best = q.grade;
      continue;
    }
    headings ??= new Set([snippet.title, ...snippet.breadcrumb].map(normalizeHeading));
    if (headings.has(normalizeHeading(q.section))) best = q.grade;
  }
  return best;
}

export interface SectionScores {
  /** S-Hit@k for k = 1, 3, 5, 10. */
  hit: Record<1 | 3 | 5 | 10, number>;
  /** 1 / rank of the first relevant snippet, 0 when none (no depth limit). */
  mrr: number;
  /** 1 when any snippet of the answer is relevant. */
  any: number;
  tokens: number;
  relevantTokens: number;
  snippets: number;
  /** 1-based rank of the first relevant snippet, 0 when none. */
  firstRank: number;
}

export function scoreSections(snippets: readonly ReturnedSnippet[], qrels: readonly SectionQrel[]): SectionScores {
  let firstRank = 0;
  let tokens = 0;
  let relevantTokens = 0;
  snippets.forEach((s, i) => {
    tokens += s.tokens;
    if (snippetGrade(s, qrels) > 0) {
      relevantTokens += s.tokens;
      if (firstRank === 0) firstRank = i + 1;
    }
  });
  const hitAt = (k: number) => (firstRank > 0 && firstRank <= k ? 1 : 0);
  return {
    hit: { 1: hitAt(1), 3: hitAt(3), 5: hitAt(5), 10: hitAt(10) },
    mrr: firstRank > 0 ? 1 / firstRank : 0,
    any: firstRank > 0 ? 1 : 0,
    tokens,
    relevantTokens,
    snippets: snippets.length,
    firstRank,
  };
}

export interface SectionSummary {
  n: number;
  mrr: number;
  hit: Record<1 | 3 | 5 | 10, number>;
  any: number;
  medianTokens: number;
  meanTokens: number;
  /** Σ relevant tokens / Σ tokens over the group. */
  relevantShare: number;
  medianSnippets: number;
}

export function medianOf(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarizeSections(scores: readonly SectionScores[]): SectionSummary {
  const n = scores.length;
  const mean = (f: (s: SectionScores) => number) => (n === 0 ? 0 : scores.reduce((sum, s) => sum + f(s), 0) / n);
  const tokens = scores.reduce((sum, s) => sum + s.tokens, 0);
  const relevant = scores.reduce((sum, s) => sum + s.relevantTokens, 0);
  return {
    n,
    mrr: mean((s) => s.mrr),
    hit: { 1: mean((s) => s.hit[1]), 3: mean((s) => s.hit[3]), 5: mean((s) => s.hit[5]), 10: mean((s) => s.hit[10]) },
    any: mean((s) => s.any),
    medianTokens: medianOf(scores.map((s) => s.tokens)),
    meanTokens: mean((s) => s.tokens),
    relevantShare: tokens === 0 ? 0 : relevant / tokens,
    medianSnippets: medianOf(scores.map((s) => s.snippets)),
  };
}
