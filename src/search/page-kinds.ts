/**
 * Page kinds in ranking (indexing/discover/page-kind.ts decides them). A how-to question is
 * answered by guides and reference: changelogs, posts and migration guides mention the same
 * words (every option that ever changed) and used to outrank the reference. A question about
 * what changed wants exactly those pages, for the version it names (or the one being served):
 * "8 → 9 breaking changes" on mongoose 9 wants the guide to 9, not the guides to 8, 7 or 4;
 * "what changed from koa 2" on koa 3 wants the guide from 2 to 3, not from 1 to 2.
 * An error catalogue (one short section per message) answers a question about an error; for
 * any other its headings (`missing_context`, "Config and model_config both defined") match
 * a topic's words better than the page about that topic, which they are not.
 */
import type { ContextSnippet } from './types';
import { SEARCH_WEIGHTS, type PageKindWeights } from './weights';

export interface ChangeQuestion {
  /** The question asks what changed (upgrading, migrating, breaking, deprecated, new in). */
  asksWhatChanged: boolean;
  /** Major versions the question is about: named ("koa 3", "v4", "version 9"), or where it goes ("8 → 9", "from 2 to 3", "between 1.4 and 2.0": the second). */
  versions: number[];
  /** Versions it leaves ("after upgrading from koa 2"): the guides that lead away from them. */
  from: number[];
  /** The question is about an error or a warning (names one, quotes one, or says something fails). */
  aboutError: boolean;
}

const CHANGE_WORDS =
  /\b(what('?s| is| has| have)? (changed|new|different)|changes? (in|from|between|to|since)|breaking|upgrad\w*|migrat\w*|deprecat\w*|removed|no longer|renamed|replaced|replacement|instead of|mov(e|ed|ing) (to|from)|after (upgrading|updating|moving|switching|bumping)|switch(ed|ing)? (to|from)|port(ed|ing)? (to|from)|release notes?|changelog|what'?s new|new in)\b/i;

const NUMBER = String.raw`v?(\d{1,3})(?:\.\d+)*(?:\.x)?\b`;

/** An error or a warning in a question: the words, a class named `…Error`, or an error code such as `props_invalid_pattern`. */
const ERROR_WORDS =
  /\b(errors?|warn(s|ed|ings?)?|exceptions?|rais(e|es|ed|ing)|throw(s|n|ing)?|fail(s|ed|ing|ure)?|crash(es|ed)?|invalid|cannot|can'?t|not (defined|allowed|supported|found)|deprecat\w*|undefined)\b|\b[A-Z]\w*(Error|Warning|Exception)\b|\b[a-z]+(_[a-z]+){2,}\b/;

/** The names a library goes by in a question: its repository name, without a TLD or a js suffix. */
function libraryNames(libraryId: string): string[] {
  const repo = (libraryId.split('/').filter(Boolean)[1] ?? '').toLowerCase().replace(/\.(com|org|io|dev|net)$/, '');
  return [...new Set([repo, repo.replace(/[.-]?js$/, '')])].filter((n) => n.length > 1).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

/** What a question says about change, versions and errors (`libraryId` lets "koa 3" count as a version). */
export function changeQuestion(query: string, libraryId = ''): ChangeQuestion {
  const versions = new Set<number>();
  const from = new Set<number>();
  let rest = query;
  const take = (re: RegExp, each: (m: RegExpExecArray) => void) => {
    rest = rest.replace(re, (...args) => {
      each(args as unknown as RegExpExecArray);
      return ' ';
    });
  };
  const names = libraryNames(libraryId);
  const name = names.length > 0 ? `(?:(?:${names.join('|')})\\s+)?` : '';
  // Where it goes: "8 → 9", "from v2 to v3", "koa 2 to 3", "between 1.4 and 2.0".
  take(new RegExp(`(?:\\bfrom\\s+|\\bbetween\\s+)?${name}\\b${NUMBER}\\s*(?:→|->|=>|\\bto\\b|\\band\\b)\\s*${name}${NUMBER}`, 'gi'), (m) =>
    versions.add(Number(m[2])),
  );
  // Two versions compared: "express 5 vs 4", "v3 versus v4", "zod 3 compared to 4" ask what changed, towards the newer one
  // (the first named as a version, so "5 vs 10 retries" is not one).
  let compared = false;
  const versionNamed = `(?:${names.length > 0 ? `\\b(?:${names.join('|')})\\s*|` : ''}\\bversion\\s+|\\bv(?=\\d))`;
  take(new RegExp(`${versionNamed}${NUMBER}\\s*(?:\\bvs\\b\\.?|\\bversus\\b|\\bcompared (?:to|with)\\b)\\s*${name}${NUMBER}`, 'gi'), (m) => {
    compared = true;
    versions.add(Math.max(Number(m[1]), Number(m[2])));
  });
  // What it leaves: "from koa 2".
  take(new RegExp(`\\bfrom\\s+${name}${NUMBER}`, 'gi'), (m) => from.add(Number(m[1])));
  // What it names: "koa 3", "v4", "version 9", "to mongoose 9".
  const named = new RegExp(`${versionNamed}${NUMBER}`, 'gi');
  for (const m of rest.matchAll(named)) versions.add(Number(m[1]));
  return { asksWhatChanged: compared || CHANGE_WORDS.test(query), versions: [...versions], from: [...from], aboutError: ERROR_WORDS.test(query) };
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
  // Leaving a version: the served one when it is later, else the next one.
  if (question.from.length > 0) return question.from.map((v) => (major !== undefined && major > v ? major : v + 1));
  if (major !== undefined) return [major];
  let newest: number | undefined;
  for (const d of pool) {
    const v = d.pageKind === 'migration' || d.pageKind === 'changelog' ? majorOf(d.pageVersion) : undefined;
    if (v !== undefined && (newest === undefined || v > newest)) newest = v;
  }
  return newest === undefined ? [] : [newest];
}

/** The multiplier of a snippet's score for its page's kind, given the question. */
export function pageKindFactor(
  doc: Pick<ContextSnippet, 'pageKind' | 'pageVersion'>,
  question: ChangeQuestion,
  targets: readonly number[],
  w: PageKindWeights = SEARCH_WEIGHTS.pageKinds,
): number {
  const kind = doc.pageKind ?? 'guide';
  if (kind === 'guide' || kind === 'reference' || kind === 'example') return 1;
  if (kind === 'internal' || kind === 'stub') return w.internal;
  if (kind === 'errors') return question.aboutError ? 1 : w.errorsForOther;
  if (kind === 'blog') return question.asksWhatChanged ? w.blogForChange : w.blog;
  const version = majorOf(doc.pageVersion);
  const forTarget = version === undefined || targets.length === 0 ? undefined : targets.includes(version);
  if (!question.asksWhatChanged) return forTarget === false ? w.otherVersionForHowTo : w.changeForHowTo;
  if (forTarget === false) return w.otherVersionForChange;
  return forTarget === true ? w.targetForChange : w.changeForChange;
}
