/**
 * The Context7 JSON format of a context answer (`codeSnippets`, `infoSnippets`) plus our
 * own `snippets`: one list of both kinds in final rank order, with score and source. Built
 * field by field so no stored document is ever serialised raw.
 */
import type { ContextSnippet, RankedSnippet } from '../types';
import { presentedSourceUrl } from '../../util/source-url';
import { fencedBlocks, proseOf } from './fence';

export interface CodeSnippetJson {
  codeTitle: string;
  codeDescription: string;
  codeLanguage: string;
  codeTokens: number;
  /** The source URL, as Context7 uses it. */
  codeId: string;
  pageTitle: string;
  codeList: Array<{ language: string; code: string }>;
}

export interface InfoSnippetJson {
  /** The source URL. */
  pageId: string;
  /** Headings joined with " > ". */
  breadcrumb: string;
  content: string;
  contentTokens: number;
}

export interface SnippetJson {
  kind: ContextSnippet['kind'];
  title: string;
  description: string;
  content: string;
  language: string;
  code: string;
  breadcrumb: string[];
  pageTitle: string;
  /** What the page is (guide, reference, example, errors, changelog, migration, blog, internal, stub). */
  pageKind: string;
  /** The part of a long section (0 its opening part); absent for a whole section. */
  part?: number;
  /** The last part this snippet holds when adjacent parts were merged into it (`part` is the first). */
  lastPart?: number;
  tokens: number;
  score: number;
  id: string;
  source: { path: string; url: string; startLine: number };
}

export interface ContextJson {
  codeSnippets: CodeSnippetJson[];
  infoSnippets: InfoSnippetJson[];
  snippets: SnippetJson[];
}

/** Scores rounded to 4 decimals: enough to compare, stable to print. */
const roundScore = (score: number): number => Math.round(score * 10_000) / 10_000;

/** A code snippet as an entry of Context7's `codeSnippets`. */
export function presentCodeSnippet(doc: ContextSnippet): CodeSnippetJson {
  return {
    codeTitle: doc.title,
    // A section's snippet: its prose, with its examples in codeList.
    codeDescription: doc.content !== '' ? proseOf(doc.content) : doc.description,
    codeLanguage: doc.language,
    codeTokens: doc.tokens,
    codeId: presentedSourceUrl(doc),
    pageTitle: doc.pageTitle,
    codeList: codeListOf(doc),
  };
}

function codeListOf(doc: ContextSnippet): Array<{ language: string; code: string }> {
  const blocks = doc.content !== '' ? fencedBlocks(doc.content) : [];
  return blocks.length > 0 ? blocks : [{ language: doc.language, code: doc.code }];
}

/** An info snippet as an entry of Context7's `infoSnippets`. */
export function presentInfoSnippet(doc: ContextSnippet): InfoSnippetJson {
  return { pageId: presentedSourceUrl(doc), breadcrumb: doc.breadcrumb.join(' > '), content: doc.content, contentTokens: doc.tokens };
}

/** A snippet of either kind as an entry of our ranked `snippets`. */
export function presentRankedSnippet({ doc, score }: RankedSnippet): SnippetJson {
  return {
    kind: doc.kind,
    title: doc.title,
    description: doc.description,
    content: doc.content,
    language: doc.language,
    code: doc.code,
    breadcrumb: [...doc.breadcrumb],
    pageTitle: doc.pageTitle,
    pageKind: doc.pageKind ?? 'guide',
    ...(doc.part !== undefined ? { part: doc.part } : {}),
    ...(doc.lastPart !== undefined ? { lastPart: doc.lastPart } : {}),
    tokens: doc.tokens,
    score: roundScore(score),
    id: doc.id,
    source: { path: doc.path, url: presentedSourceUrl(doc), startLine: doc.startLine },
  };
}

/** The `type=json` body of `GET /v2/context`; each list keeps the rank order. */
export function formatContextJson(snippets: readonly RankedSnippet[]): ContextJson {
  return {
    codeSnippets: snippets.filter((s) => s.doc.kind === 'code').map((s) => presentCodeSnippet(s.doc)),
    infoSnippets: snippets.filter((s) => s.doc.kind === 'info').map((s) => presentInfoSnippet(s.doc)),
    snippets: snippets.map(presentRankedSnippet),
  };
}
