/**
 * Text analysis in Node. The Elasticsearch we must support has no stemming, word-delimiter
 * or synonym filters, so documents and queries are analysed here into space-separated
 * tokens that the index stores with the `whitespace` analyzer. One pipeline serves both
 * sides, which is what makes a query token match a document token.
 *
 * A code-like token (`ctx.cookies.set`, `getServerSideProps`, `snake_case`, `/api/v1`,
 * `--flag`, `@app.route`) yields its whole lowercased form first, then the shorter member
 * chains (`cookies.set`), then its words, stemmed. The whole form is what exact identifier
 * matching uses; the words let prose about the same thing match.
 */
import { porterStem } from './stemmer';
import { STOP_WORDS, SYNONYM_GROUPS } from './vocabulary';

/** A query, analysed for the query builder and the re-ranker. */
export interface AnalyzedQuery {
  /** Distinct analysed terms in query order: whole identifiers, member chains, stemmed words. */
  terms: string[];
  /** Term sequences for proximity matching: quoted segments first, then the query's clauses. */
  phrases: string[][];
  /** The quoted segments alone (a subset of `phrases`), matched as near-exact phrases. */
  exactPhrases: string[][];
  /** Lowercased code identifiers named in the query (compound tokens, calls, quoted code). */
  identifiers: string[];
  /** Stemmed synonyms of the terms that are not terms themselves; weighted low. */
  expansions: string[];
  /** 0 (the question asks for a concept) .. 1 (it asks for code). */
  wantsCode: number;
}

interface Token {
  /** Lowercased whole form when the token is compound (several words or a flag). */
  whole: string | undefined;
  /** Dotted member chains shorter than the whole, and compound dotted segments. */
  chains: string[];
  /** Lowercased words, unstemmed. */
  parts: string[];
  /** A word written as a keyword of code (`{#each}`, `{:else}`, `{@html}`, `.then(`): kept even when it is a stop word. */
  keyword?: boolean;
}

const TOKEN_RE = /[\p{L}\p{N}_$@#./:'-]+/gu;
const SEPARATOR_RE = /[._$@#/:-]+/;
const CAMEL_RE = /\p{Lu}+\d*(?!\p{Ll})|\p{Lu}?\p{Ll}+\d*|\d+|[^\p{Lu}\p{Ll}\d]+/gu;
const SIMPLE_RE = /^[a-z0-9]+$/;
const EDGE_PUNCT = /^[.:/'#@-]+|[.:/'#@-]+$/g;
/**
 * One word after a sigil that makes it code: a template block's `#`, `:`, `/` or `@`
 * (Svelte's `{#each}`, `{:else}`, `{/if}`, `{@html}`; Handlebars' `{{#each}}`; a template
 * tag's `{%`, below) or a member's `.` (`.then(`). Such a word is a keyword even when prose
 * uses it as a function word.
 */
const KEYWORD_RE = /^[#:/@.][a-z]+$/;
/**
 * A template tag's opening (`{%`, `{%-`, `{%+` with the spaces after it: Jinja, Django,
 * Liquid, Nunjucks, Twig), read as `#` before its word, so `{% for %}` and `{%- if x %}` keep
 * `for` and `if` as keywords like Svelte's `{#each}`.
 */
const TEMPLATE_TAG_RE = /\{%[-+~]?[ \t]*(?=[a-z])/g;
const MAX_TOKEN_LENGTH = 80;

const stemCache = new Map<string, string>();

/** Porter stem with a bounded memo: documents repeat the same few thousand words. */
export function stem(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  const stemmed = porterStem(word);
  if (stemCache.size > 100_000) stemCache.clear();
  stemCache.set(word, stemmed);
  return stemmed;
}

function splitWords(piece: string, out: string[]): void {
  if (!/\p{Lu}/u.test(piece)) {
    out.push(piece);
    return;
  }
  for (const m of piece.matchAll(CAMEL_RE)) out.push(m[0].toLowerCase());
}

function readToken(raw: string): Token | undefined {
  if (raw.length > MAX_TOKEN_LENGTH) return undefined;
  if (SIMPLE_RE.test(raw)) return { whole: undefined, chains: [], parts: [raw] };
  if (KEYWORD_RE.test(raw)) return { whole: undefined, chains: [], parts: [raw.slice(1)], keyword: true };
  const flag = /^--?[A-Za-z]/.test(raw) ? (raw[1] === '-' ? '--' : '-') : '';
  let text = raw.replace(EDGE_PUNCT, '');
  if (text.includes("'")) text = text.replace(/'s$/i, '').replace(/'/g, '');
  if (text === '') return undefined;
  const parts: string[] = [];
  for (const piece of text.split(SEPARATOR_RE)) if (piece !== '') splitWords(piece, parts);
  const lower = text.toLowerCase();
  if (parts.length <= 1 && flag === '') return { whole: undefined, chains: [], parts };
  const chains: string[] = [];
  if (lower.includes('.') && !lower.includes('/') && /\p{L}/u.test(lower)) {
    const segments = lower.split('.').filter((s) => s !== '');
    for (let i = 1; i < segments.length - 1; i++) chains.push(segments.slice(i).join('.'));
    const originalSegments = text.split('.');
    for (let i = 0; i < originalSegments.length; i++) {
      const segment = originalSegments[i];
      if (segments.length > 1 && /[_$-]|\p{Ll}\p{Lu}/u.test(segment)) chains.push(segment.toLowerCase());
    }
  }
  return { whole: flag + lower, chains, parts };
}

function forEachToken(text: string, visit: (token: Token) => void): void {
  const read = text.includes('{%') ? text.replace(TEMPLATE_TAG_RE, ' #') : text;
  for (const m of read.matchAll(TOKEN_RE)) {
    const token = readToken(m[0]);
    if (token !== undefined) visit(token);
  }
}

function keepPart(part: string, compound: boolean): boolean {
  if (STOP_WORDS.has(part)) return false;
  // Inside an identifier a lone letter or digit (`z.infer`, `v1.2.3`) says nothing alone.
  return !(compound && part.length === 1);
}

/**
 * Analyses text into index tokens, in order: for each token its whole form and member
 * chains when compound, then its words lowercased, without stop words, Porter-stemmed.
 */
export function analyzeText(text: string): string[] {
  const out: string[] = [];
  forEachToken(text, (token) => {
    const compound = token.whole !== undefined;
    if (token.whole !== undefined) out.push(token.whole);
    for (const chain of token.chains) out.push(chain);
    for (const part of token.parts) if (token.keyword || keepPart(part, compound)) out.push(stem(part));
  });
  return out;
}

/**
 * The exact identifiers of a text, unstemmed and lowercased: whole compound forms and
 * member chains; with `everyWord` (code, titles) also every non-stop word.
 */
export function extractIdentifiers(text: string, everyWord: boolean): string[] {
  const out: string[] = [];
  forEachToken(text, (token) => {
    if (token.whole !== undefined) out.push(token.whole);
    for (const chain of token.chains) out.push(chain);
    if (everyWord) for (const part of token.parts) if (token.keyword || keepPart(part, token.whole !== undefined)) out.push(part);
  });
  return out;
}

const SYNONYMS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const group of SYNONYM_GROUPS) {
    const stems = [...new Set(group.map((w) => porterStem(w)))];
    for (const s of stems) map.set(s, [...(map.get(s) ?? []), ...stems.filter((o) => o !== s)]);
  }
  return map;
})();

const QUOTED_RE = /(?:^|[\s([{,:=])(?:'([^'\n]+)'|"([^"\n]+)"|`([^`\n]+)`|“([^”\n]+)”|‘([^’\n]+)’)(?=$|[\s)\]},.:;?!=])/g;
const CLAUSE_RE = /[,;?!()[\]{}]|\s[-–—]\s|:\s|\.\s/;

function quotedSegments(query: string): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(QUOTED_RE)) {
    const inner = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5];
    if (inner !== undefined && inner.trim() !== '') out.push(inner.trim());
  }
  return out;
}

function queryIdentifiers(query: string, quoted: string[]): string[] {
  const ids: string[] = [];
  forEachToken(query, (token) => {
    if (token.whole !== undefined) ids.push(token.whole, ...token.chains);
  });
  // A word written as a call, `lean()` or `.then()`, names an API even when it is one word.
  for (const m of query.matchAll(/([\p{L}_$][\p{L}\p{N}_$]*)\(/gu)) ids.push(m[1].toLowerCase());
  for (const segment of quoted) {
    if (/\s/.test(segment)) continue;
    ids.push(...extractIdentifiers(segment, false));
    const single = segment.replace(EDGE_PUNCT, '').toLowerCase();
    if (single !== '' && !/[^\p{L}\p{N}_$.-]/u.test(single) && !STOP_WORDS.has(single)) ids.push(single);
  }
  return [...new Set(ids)].filter((id) => id.length > 1);
}

const CODE_CUES: ReadonlyArray<readonly [RegExp, number]> = [
  [/\bhow (do|can|should|would|to)\b/, 0.2],
  [/\b(examples?|samples?|snippets?|usage|syntax|code|implement|write|recipe)\b/, 0.2],
  [
    /^(\S+\s)?(set|create|add|make|use|configure|get|send|upload|build|define|register|mount|serve|attach|enable|disable|turn|cancel|mock|call|parse|validate|store|rotate|retry|split|allow|return|install|run|start|stop|read|convert|generate|load|handle|catch|render|pass|change|update|delete|remove|limit|redirect|stream)\b/,
    0.15,
  ],
];

const CONCEPT_CUES: ReadonlyArray<readonly [RegExp, number]> = [
  [/\bwhy\b/, 0.3],
  [
    /\b(what is|what are|what's|whats|difference|differences|differ|vs\.?|versus|compare[ds]?|comparison|explain|concepts?|overview|philosophy|pros and cons|trade-?offs?|worth)\b/,
    0.25,
  ],
  [/\b(when (should|to|is|does)|should i|is it|does it|do i (have|need))\b/, 0.1],
  [/\b(in what order|how does|how do .* work|lifecycle|under the hood|internally)\b/, 0.15],
];

/** Heuristic 0..1: does the question ask for code (how do I / set X / API names) or a concept? */
export function codeIntent(query: string, identifierCount: number): number {
  const q = query.toLowerCase().trim();
  let score = 0.5 + Math.min(0.15, 0.05 * identifierCount);
  for (const [re, weight] of CODE_CUES) if (re.test(q)) score += weight;
  for (const [re, weight] of CONCEPT_CUES) if (re.test(q)) score -= weight;
  return Math.round(Math.min(1, Math.max(0, score)) * 100) / 100;
}

/** Analyses a user question for the query builder and the re-ranker. */
export function analyzeQuery(query: string): AnalyzedQuery {
  const terms = [...new Set(analyzeText(query))];
  const quoted = quotedSegments(query);
  const exactPhrases = quoted
    .filter((q) => /\s/.test(q))
    .map((q) => analyzeText(q))
    .filter((p) => p.length >= 2);
  const clauses = query
    .split(CLAUSE_RE)
    .map((c) => analyzeText(c))
    .filter((p) => p.length >= 2);
  const phrases = [...new Map([...exactPhrases, ...clauses].map((p) => [p.join(' '), p])).values()];
  const identifiers = queryIdentifiers(query, quoted);
  const termSet = new Set(terms);
  const expansions = new Set<string>();
  for (const term of terms) for (const synonym of SYNONYMS.get(term) ?? []) if (!termSet.has(synonym)) expansions.add(synonym);
  return { terms, phrases, exactPhrases, identifiers, expansions: [...expansions], wantsCode: codeIntent(query, identifiers.length) };
}
