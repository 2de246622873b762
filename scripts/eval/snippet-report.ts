/** The eval's snippet-level tables: overall, per library and per intent; paraphrase variants; off-topic answers. */
import { medianOf, summarizeSections, type SectionScores, type SectionSummary } from './sections';
import { fixed, formatTable } from './table';

export interface SectionResult {
  library: string;
  intent: string;
  scores: SectionScores;
}

function groups(results: readonly SectionResult[]): Array<[string, SectionSummary]> {
  const by = (key: (r: SectionResult) => string, prefix: string): Array<[string, SectionSummary]> => {
    const map = new Map<string, SectionScores[]>();
    for (const r of results) map.set(key(r), [...(map.get(key(r)) ?? []), r.scores]);
    return [...map.keys()].sort().map((k) => [`${prefix} ${k}`, summarizeSections(map.get(k) ?? [])]);
  };
  return [['overall', summarizeSections(results.map((r) => r.scores))], ...by((r) => r.library, 'library'), ...by((r) => r.intent, 'intent')];
}

export function sectionRows(results: readonly SectionResult[]): Array<[string, SectionSummary]> {
  return groups(results);
}

export function formatSectionTable(results: readonly SectionResult[]): string {
  const head = ['group', 'n', 'S-MRR', 'S-Hit@1', 'S-Hit@3', 'S-Hit@5', 'S-any', 'tok p50', 'tok mean', 'rel share', 'snip p50'];
  const rows = groups(results).map(([name, g]) => [
    name,
    String(g.n),
    fixed(g.mrr),
    fixed(g.hit[1]),
    fixed(g.hit[3]),
    fixed(g.hit[5]),
    fixed(g.any),
    fixed(g.medianTokens, 0),
    fixed(g.meanTokens, 0),
    fixed(g.relevantShare),
    fixed(g.medianSnippets, 0),
  ]);
  return formatTable(head, rows);
}

export interface VariantSummary {
  variant: string;
  summary: SectionSummary;
  /** File-level MRR of the same calls. */
  fileMrr: number;
}

export function formatVariantTable(variants: readonly VariantSummary[]): string {
  const base = variants[0]?.summary.mrr ?? 0;
  const head = ['variant', 'n', 'S-MRR', 'Δ', 'S-Hit@1', 'S-any', 'tok p50', 'rel share', 'file MRR'];
  const rows = variants.map((v) => [
    v.variant,
    String(v.summary.n),
    fixed(v.summary.mrr),
    (v.summary.mrr - base >= 0 ? '+' : '') + fixed(v.summary.mrr - base),
    fixed(v.summary.hit[1]),
    fixed(v.summary.any),
    fixed(v.summary.medianTokens, 0),
    fixed(v.summary.relevantShare),
    fixed(v.fileMrr),
  ]);
  return formatTable(head, rows);
}

/** One question of a list (off-topic questions, topics), asked once. */
export interface ListResult {
  library: string;
  query: string;
  status: number;
  error?: string;
  tokens: number;
  snippets: number;
}

/** An off-topic question is answered correctly by 404 no_snippets_found. */
export function saidNothingRelevant(r: ListResult): boolean {
  return r.status === 404 && (r.error ?? '').includes('no_snippets_found');
}

export function formatOffTopic(results: readonly ListResult[]): string {
  const byLibrary = new Map<string, ListResult[]>();
  for (const r of results) byLibrary.set(r.library, [...(byLibrary.get(r.library) ?? []), r]);
  const row = (name: string, list: readonly ListResult[]) => {
    const answered = list.filter((r) => !saidNothingRelevant(r));
    return [
      name,
      String(list.length),
      fixed(list.filter(saidNothingRelevant).length / Math.max(1, list.length)),
      String(answered.length),
      fixed(answered.reduce((n, r) => n + r.tokens, 0) / Math.max(1, answered.length), 0),
    ];
  };
  const table = formatTable(
    ['group', 'n', 'nothing-relevant', 'answered', 'tokens when answered'],
    [row('overall', results), ...[...byLibrary.keys()].sort().map((k) => row(`library ${k}`, byLibrary.get(k) ?? []))],
  );
  const wrong = results
    .filter((r) => !saidNothingRelevant(r))
    .map((r) => `  ${r.library}: "${r.query}" → ${r.status}${r.error ? ` ${r.error.slice(0, 80)}` : ''} (${r.snippets} snippets, ${r.tokens} tokens)`);
  return wrong.length > 0 ? `${table}\n\nAnswered although off-topic:\n${wrong.join('\n')}` : table;
}

/** A topic is answered correctly with snippets (200). */
export function gotSnippets(r: ListResult): boolean {
  return r.status === 200;
}

/** Topics the documentation answers: how many got snippets, and the ones told "nothing relevant" or failing. */
export function formatTopics(results: readonly ListResult[]): string {
  const answered = results.filter(gotSnippets);
  const table = formatTable(
    ['group', 'n', 'answered', 'median tokens when answered'],
    [['overall', String(results.length), fixed(answered.length / Math.max(1, results.length)), fixed(medianOf(answered.map((r) => r.tokens)), 0)]],
  );
  const missed = results.filter((r) => !gotSnippets(r)).map((r) => `  ${r.library}: "${r.query}" → ${r.status}${r.error ? ` ${r.error.slice(0, 80)}` : ''}`);
  return missed.length > 0 ? `${table}\n\nNot answered:\n${missed.join('\n')}` : table;
}
