/**
 * Page kinds in ranking (indexing/discover/page-kind.ts decides them). A how-to question is
 * answered by guides and reference: changelogs, posts and migration guides mention the same
 * words (every option that ever changed) and used to outrank the reference. A question about
 * what changed wants exactly those pages, for the version it names (or the one being served):
 * "8 → 9 breaking changes" on mongoose 9 wants the guide to 9, not the guides to 8, 7 or 4.
 */
import type { ContextSnippet } from './types';
import { SEARCH_WEIGHTS, type PageKindWeights } from './weights';

export interface ChangeQuestion {
  /** The question asks what changed (upgrading, migrating, breaking, deprecated, new in). */
  asksWhatChanged: boolean;
  /** Major versions the question names ("koa 3", "v4", "8 → 9": 8 and 9). */
  versions: number[];
}

const CHANGE_WORDS =
  /\b(what('?s| is| has| have)? (changed|new|different)|changes? (in|from|between|to|since)|breaking|upgrad\w*|migrat\w*|deprecat\w*|removed|no longer|renamed|replaced|replacement|instead of|mov(e|ed|ing) (to|from)|after (upgrading|updating|moving|switching|bumping)|switch(ed|ing)? (to|from)|port(ed|ing)? (to|from)|release notes?|changelog|what'?s new|new in)\b/i;
// An arrow also opens a mention: in "mongoose 8 → 9" the name takes the 8, the arrow the 9.
const VERSION_MENTION = /(?:\bv|\bversion\s+|\b[a-z][\w.-]*\s+|(?:→|->|=>)\s*v?)(\d{1,3})(?:\.\d+)*(?:\.x)?\b|\b(\d{1,3})(?:\.\d+)*\s*(?:→|->|=>|to)\s*v?(\d{1,3})\b/gi;

/** What a question says about change and versions. */
export function changeQuestion(query: string): ChangeQuestion {
  const versions = new Set<number>();
  for (const m of query.matchAll(VERSION_MENTION)) {
    for (const g of [m[1], m[2], m[3]]) if (g !== undefined) versions.add(Number(g));
  }
  return { asksWhatChanged: CHANGE_WORDS.test(query), versions: [...versions].filter((v) => v < 1000) };
}

/** The major version of a tag or page version ("3.2.0" → 3, "v4" → 4, "2.0" → 2), if any. */
export function majorOf(version: string | undefined): number | undefined {
  const m = /^v?(\d{1,4})(?:[._]\d+)*$/.exec(version?.trim() ?? '');
  return m ? Number(m[1]) : undefined;
}

/**
 * The versions a question is about: those it names, else the served version's major, else
 * (a branch such as main) the newest version any changelog or migration page of the pool is about.
 */
export function targetVersions(question: ChangeQuestion, served: string, pool: readonly Pick<ContextSnippet, 'pageKind' | 'pageVersion'>[]): number[] {
  if (question.versions.length > 0) return question.versions;
  const major = majorOf(served);
  if (major !== undefined) return [major];
  let newest: number | undefined;
  for (const d of pool) {
    const v = d.pageKind === 'migration' || d.pageKind === 'changelog' ? majorOf(d.pageVersion) : undefined;
    if (v !== undefined && (newest === undefined || v > newest)) newest = v;
  }
  return newest === undefined ? [] : [newest];
}

/** The multiplier of a snippet's score for its page's kind, given the question. */
export function pageKindFactor(doc: Pick<ContextSnippet, 'pageKind' | 'pageVersion'>, question: ChangeQuestion, targets: readonly number[], w: PageKindWeights = SEARCH_WEIGHTS.pageKinds): number {
  const kind = doc.pageKind ?? 'guide';
  if (kind === 'guide' || kind === 'reference' || kind === 'example') return 1;
  if (kind === 'internal' || kind === 'stub') return w.internal;
  if (kind === 'blog') return question.asksWhatChanged ? w.blogForChange : w.blog;
  const version = majorOf(doc.pageVersion);
  const forTarget = version === undefined || targets.length === 0 ? undefined : targets.includes(version);
  if (!question.asksWhatChanged) return forTarget === false ? w.otherVersionForHowTo : w.changeForHowTo;
  if (forTarget === false) return w.otherVersionForChange;
  return forTarget === true ? w.targetForChange : w.changeForChange;
}
