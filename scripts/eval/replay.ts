/**
 * `npx tsx scripts/eval/replay.ts [.eval/capture.json] [--explain <dev index>] [--set key=value ...]`
 *
 * Replays a capture (scripts/eval/capture.ts) through the context answer's ranking and
 * assembly as the code is now (search/answer.ts `answerFromLegs`), and prints the snippet-level
 * figures: the dev questions as asked, each paraphrase variant, and the off-topic questions
 * ("nothing relevant" = an empty answer). `--set` overrides one weight for a sweep
 * (`--set answer.relativeFloor=0.6`). `--explain N` prints the ranking of dev question N (1-based).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { analyzeQuery } from '../../src/search/analysis';
import { answerFromLegs } from '../../src/search/answer';
import { SEARCH_WEIGHTS, type SearchWeights } from '../../src/search/weights';
import { DEFAULT_TOKENS } from '../../src/search/budget';
import { legsOf, type Capture, type CapturedQuestion } from './captured';
import { scoreSections, snippetGrade, summarizeSections, type SectionScores } from './sections';
import { fixed, formatTable } from './table';

function withOverrides(base: SearchWeights, sets: readonly string[]): SearchWeights {
  const copy = structuredClone(base) as Record<string, Record<string, unknown>>;
  for (const set of sets) {
    const [key, raw] = set.split('=');
    const [group, name] = key.split('.');
    if (!copy[group] || !(name in copy[group])) throw new Error(`unknown weight ${key}`);
    const current = copy[group][name];
    copy[group][name] = typeof current === 'number' ? Number(raw) : typeof current === 'boolean' ? raw === 'true' : raw;
  }
  return copy as unknown as SearchWeights;
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { explain: { type: 'string' }, set: { type: 'string', multiple: true }, variant: { type: 'string', default: 'original' } },
  });
  const capture = JSON.parse(fs.readFileSync(positionals[0] ?? '.eval/capture.json', 'utf8')) as Capture;
  const captured = capture.questions;
  const weights = withOverrides(SEARCH_WEIGHTS, values.set ?? []);
  const answer = (q: CapturedQuestion) =>
    answerFromLegs(
      { ...legsOf(capture, q), analyzed: analyzeQuery(q.query), budget: DEFAULT_TOKENS, query: q.query, libraryId: q.library, version: q.version },
      weights,
    );

  if (values.explain) {
    const q = captured.find((c) => c.set === 'dev' && c.index === Number(values.explain) - 1 && c.variant === values.variant);
    if (!q) throw new Error(`no dev question ${values.explain}`);
    const result = answer(q);
    console.log(`q: ${q.query}\nwant: ${q.sections.map((s) => `${s.path} | ${s.section}`).join('; ')}`);
    for (const [i, s] of result.ranked.slice(0, 25).entries()) {
      const grade = snippetGrade({ path: s.doc.path, title: s.doc.title, breadcrumb: s.doc.breadcrumb, tokens: s.doc.tokens }, q.sections);
      const inAnswer = result.snippets.some((a) => a.doc.id === s.doc.id) ? '*' : ' ';
      console.log(
        `${inAnswer}${String(i + 1).padStart(3)} ${fixed(s.score)} cos ${fixed(s.cosine)} cov ${fixed(s.coverage, 2)} [${grade || '-'}] ${s.doc.pageKind ?? ''} ${s.doc.path} | ${s.doc.breadcrumb.slice(1).join(' > ')} (${s.doc.tokens}${s.doc.part !== undefined ? ` part ${s.doc.part}` : ''})`,
      );
    }
    return;
  }

  const score = (q: CapturedQuestion): SectionScores =>
    scoreSections(
      answer(q).snippets.map((s) => ({ path: s.doc.path, title: s.doc.title, breadcrumb: s.doc.breadcrumb, tokens: s.doc.tokens })),
      q.sections,
    );
  const dev = captured.filter((c) => c.set === 'dev');
  const rows: string[][] = [];
  const variants = [...new Set(dev.map((c) => c.variant))];
  for (const variant of variants) {
    const list = dev.filter((c) => c.variant === variant);
    const s = summarizeSections(list.map(score));
    rows.push([
      variant,
      String(s.n),
      fixed(s.mrr),
      fixed(s.hit[1]),
      fixed(s.hit[3]),
      fixed(s.any),
      fixed(s.medianTokens, 0),
      fixed(s.relevantShare),
      fixed(s.medianSnippets, 0),
    ]);
  }
  const off = captured.filter((c) => c.set === 'off-topic');
  if (off.length > 0) {
    const empty = off.filter((q) => answer(q).snippets.length === 0).length;
    rows.push(['off-topic: nothing relevant', String(off.length), fixed(empty / off.length), '', '', '', '', '', '']);
  }
  const topics = captured.filter((c) => c.set === 'topic');
  if (topics.length > 0) {
    const answered = topics.filter((q) => answer(q).snippets.length > 0).length;
    rows.push(['topics: answered', String(topics.length), fixed(answered / topics.length), '', '', '', '', '', '']);
  }
  console.log(formatTable(['variant', 'n', 'S-MRR', 'S-Hit@1', 'S-Hit@3', 'S-any', 'tok p50', 'rel share', 'snip p50'], rows));
  const original = dev.filter((c) => c.variant === 'original');
  const groups = new Map<string, SectionScores[]>();
  for (const q of original) for (const key of [`library ${q.library}`, `intent ${q.intent}`]) groups.set(key, [...(groups.get(key) ?? []), score(q)]);
  console.log(
    formatTable(
      ['group', 'n', 'S-MRR', 'S-Hit@1', 'S-any', 'tok p50', 'rel share'],
      [...groups.entries()].sort().map(([k, list]) => {
        const s = summarizeSections(list);
        return [k, String(s.n), fixed(s.mrr), fixed(s.hit[1]), fixed(s.any), fixed(s.medianTokens, 0), fixed(s.relevantShare)];
      }),
    ),
  );
}

main();
