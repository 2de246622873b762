/**
 * `npm run eval -- <dataset.yaml> [--url http://127.0.0.1:3000] [--out .eval/<name>.json]
 *  [--api-key smk_...] [--concurrency 4] [--worst 10] [--paraphrase] [--off-topic <file.yaml>]`
 *
 * Scores a running server on a graded question set with the protocol of
 * shared/eval/README.md: one `GET /v2/context?...&type=json` per question (default token
 * budget), the ranked list is `snippets[].source.path`, and Hit@k, MRR, nDCG@k and Recall@k
 * (k = 1, 3, 5, 10) are averaged overall, per library and per intent. Errors count as misses
 * and are listed. When the set labels sections (dev-sections.yaml), every answer is also
 * scored snippet by snippet (S-Hit@k, S-MRR, S-any, tokens, relevant share; eval/sections.ts).
 * `--paraphrase` asks each question again as "how do I …", "… in <library>?" and lower-case
 * without punctuation (eval/variants.ts); `--off-topic` asks questions the libraries cannot
 * answer ({ library, query } entries) and counts the answers that said so (404
 * no_snippets_found). The full run (config, every question's ranked snippets, aggregates) is
 * written as JSON for later comparison.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DatasetError, libraryIdOf, readDataset, type EvalEntry } from './dataset';
import { fetchContext, type ContextClientOptions } from './client';
import { missScores, scoreRanking } from './metrics';
import { aggregate, type EntryResult } from './aggregate';
import { formatErrors, formatRankingTable, formatRecallTable, formatWorst } from './report';
import { gitRevision } from './revision';
import { displayPath } from './table';
import { answerShape, scoreSections, summarizeSections, type ReturnedSnippet, type SectionScores } from './sections';
import {
  formatOffTopic,
  formatSectionTable,
  formatTopics,
  formatVariantTable,
  gotSnippets,
  saidNothingRelevant,
  type ListResult,
  type VariantSummary,
} from './snippet-report';
import { phrase, VARIANTS, type Variant } from './variants';
import yaml from 'js-yaml';

const USAGE =
  'usage: npm run eval -- <dataset.yaml> [--url http://127.0.0.1:3000] [--out .eval/<name>.json] [--api-key smk_...] [--concurrency 4] [--worst 10] [--paraphrase] [--off-topic <file.yaml>] [--topics <file.yaml>]';

interface EvalOptions {
  dataset: string;
  url: string;
  out: string;
  apiKey?: string;
  concurrency: number;
  worst: number;
  paraphrase: boolean;
  offTopic?: string;
  topics?: string;
}

function parseOptions(argv: string[]): EvalOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string', default: process.env.SHELFMARK_URL ?? 'http://127.0.0.1:3000' },
      out: { type: 'string' },
      'api-key': { type: 'string', default: process.env.SHELFMARK_API_KEY },
      concurrency: { type: 'string', default: '4' },
      worst: { type: 'string', default: '10' },
      paraphrase: { type: 'boolean', default: false },
      'off-topic': { type: 'string' },
      topics: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length !== 1) throw new UsageError(USAGE);
  const whole = (name: string, raw: string | undefined, min: number, max: number): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}.\n${USAGE}`);
    return n;
  };
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    dataset: path.resolve(positionals[0]),
    url: (values.url ?? '').replace(/\/+$/, ''),
    out: path.resolve(values.out ?? path.join('.eval', `eval-${stamp}.json`)),
    apiKey: values['api-key'] || undefined,
    concurrency: whole('concurrency', values.concurrency, 1, 64),
    worst: whole('worst', values.worst, 0, 1000),
    paraphrase: values.paraphrase === true,
    ...(values['off-topic'] ? { offTopic: path.resolve(values['off-topic']) } : {}),
    ...(values.topics ? { topics: path.resolve(values.topics) } : {}),
  };
}

class UsageError extends Error {}

/** Runs `task` over `items` with at most `concurrency` in flight; results keep item order. */
async function mapPool<T, R>(items: readonly T[], concurrency: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

async function checkServer(url: string): Promise<void> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) });
    await res.text();
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new UsageError(`No Shelfmark server answers at ${url} (${code}): start one with \`npm start\` or pass --url.`);
  }
}

type ScoredEntry = EntryResult & { sectionScores?: SectionScores; snippets: ReturnedSnippet[] };

async function scoreEntry(client: ContextClientOptions, entry: EvalEntry, variant: Variant = 'original'): Promise<ScoredEntry> {
  const libraryId = libraryIdOf(entry);
  const call = await fetchContext(client, libraryId, phrase(entry.query, entry.library, variant));
  return {
    snippets: call.snippets,
    ...(entry.sections ? { sectionScores: scoreSections(call.snippets, entry.sections) } : {}),
    ...entry,
    libraryId,
    status: call.status,
    ...(call.error !== undefined ? { error: call.error } : {}),
    latencyMs: Math.round(call.latencyMs * 10) / 10,
    tokens: call.tokens,
    paths: call.paths,
    scores: call.error === undefined ? scoreRanking(call.paths, entry.qrels) : missScores(),
    rateLimited: call.rateLimited,
  };
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const entries = readDataset(options.dataset);
  await checkServer(options.url);
  const startedAt = new Date();
  let done = 0;
  let warnedRateLimit = false;
  const tty = process.stderr.isTTY;
  const client: ContextClientOptions = {
    baseUrl: options.url,
    apiKey: options.apiKey,
    onRateLimited: (waitMs) => {
      if (warnedRateLimit) return;
      warnedRateLimit = true;
      process.stderr.write(
        `\nrate limited (429): waiting ${(waitMs / 1000).toFixed(0)} s and retrying; pass --api-key or raise RATE_LIMIT_ANON_PER_MINUTE for faster runs\n`,
      );
    },
  };
  console.error(`Scoring ${entries.length} questions from ${displayPath(options.dataset)} against ${options.url} (${options.concurrency} at a time)`);
  const results = await mapPool(entries, options.concurrency, async (entry) => {
    const result = await scoreEntry(client, entry);
    done++;
    if (tty) process.stderr.write(`\r  ${done}/${entries.length}`);
    else if (done % 10 === 0 || done === entries.length) process.stderr.write(`  ${done}/${entries.length}\n`);
    return result;
  });
  if (tty) process.stderr.write('\n');
  const finishedAt = new Date();
  const aggregates = aggregate(results);

  console.log(`\nRanking (means over questions; errors count as misses)\n${formatRankingTable(aggregates)}`);
  console.log(`\nRecall, mean tokens returned, latency\n${formatRecallTable(aggregates)}`);
  const errors = formatErrors(results);
  if (errors) console.log(`\nErrors (${results.filter((r) => r.error !== undefined).length}, scored as misses)\n${errors}`);
  if (options.worst > 0) console.log(`\nWorst questions (top 3 paths; [grade], [-] = not in qrels)\n${formatWorst(results, options.worst)}`);
  const sectioned = results.filter((r): r is ScoredEntry & { sectionScores: SectionScores } => r.sectionScores !== undefined);
  if (sectioned.length > 0) {
    console.log(
      `\nSnippet level (shared/eval/README.md; S-MRR over every rank, tokens = Σ snippets' tokens, rel share = Σ relevant / Σ tokens)\n${formatSectionTable(sectioned.map((r) => ({ library: r.library, intent: r.intent, scores: r.sectionScores })))}`,
    );
  }
  const variants: VariantSummary[] = [];
  if (options.paraphrase && sectioned.length > 0) {
    variants.push({ variant: 'original', summary: summarizeSections(sectioned.map((r) => r.sectionScores)), fileMrr: aggregates.overall.scores.mrr });
    for (const variant of VARIANTS.slice(1)) {
      const again = await mapPool(entries, options.concurrency, (entry) => scoreEntry(client, entry, variant));
      variants.push({
        variant,
        summary: summarizeSections(again.map((r) => r.sectionScores ?? scoreSections([], []))),
        fileMrr: aggregate(again).overall.scores.mrr,
      });
    }
    console.log(`\nParaphrases (each question reworded; Δ = S-MRR minus the original's)\n${formatVariantTable(variants)}`);
  }
  let offTopic: ListResult[] = [];
  if (options.offTopic) {
    offTopic = await askEach(client, options.offTopic, options.concurrency);
    console.log(`\nOff-topic questions (${displayPath(options.offTopic)}): answered "nothing relevant" = 404 no_snippets_found\n${formatOffTopic(offTopic)}`);
  }
  let topics: ListResult[] = [];
  if (options.topics) {
    topics = await askEach(client, options.topics, options.concurrency);
    console.log(`\nTopics (${displayPath(options.topics)}): short questions the documentation answers, as an assistant sends a topic\n${formatTopics(topics)}`);
  }

  const report = {
    config: {
      dataset: options.dataset,
      url: options.url,
      authenticated: options.apiKey !== undefined,
      concurrency: options.concurrency,
      protocol: 'shared/eval/README.md: GET /v2/context type=json, default tokens; ranked list = snippets[].source.path',
      revision: gitRevision(),
      node: process.version,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      seconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
    },
    aggregates,
    ...(sectioned.length > 0 ? { sections: summarizeSections(sectioned.map((r) => r.sectionScores)) } : {}),
    ...(variants.length > 0 ? { variants } : {}),
    ...(offTopic.length > 0 ? { offTopic: { nothingRelevant: offTopic.filter(saidNothingRelevant).length / offTopic.length, results: offTopic } } : {}),
    ...(topics.length > 0 ? { topics: { answered: topics.filter(gotSnippets).length / topics.length, results: topics } } : {}),
    errors: results
      .filter((r) => r.error !== undefined)
      .map((r) => ({ index: r.index, libraryId: r.libraryId, query: r.query, status: r.status, error: r.error })),
    entries: results,
  };
  fs.mkdirSync(path.dirname(options.out), { recursive: true });
  fs.writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  const o = aggregates.overall;
  console.log(
    `\nMRR ${o.scores.mrr.toFixed(3)}  Hit@1 ${o.scores.hit[1].toFixed(3)}  Hit@5 ${o.scores.hit[5].toFixed(3)}  nDCG@5 ${o.scores.ndcg[5].toFixed(3)}  (${o.n} questions, ${o.errors} errors)`,
  );
  if (sectioned.length > 0) {
    const s = summarizeSections(sectioned.map((r) => r.sectionScores));
    console.log(
      `S-MRR ${s.mrr.toFixed(3)}  S-Hit@1 ${s.hit[1].toFixed(3)}  S-Hit@3 ${s.hit[3].toFixed(3)}  S-any ${s.any.toFixed(3)}  median tokens ${s.medianTokens.toFixed(0)}  relevant share ${s.relevantShare.toFixed(3)}`,
    );
    const shapes = sectioned.map((r) => answerShape(r.snippets));
    const with_ = (f: (x: ReturnType<typeof answerShape>) => number) => shapes.filter((x) => f(x) > 0).length;
    console.log(
      `answers with prose/code twins of one section: ${with_((x) => x.twins)}/${shapes.length}; with parts out of order or without their opening part: ${with_((x) => x.partsOutOfOrder)}/${shapes.length}`,
    );
  }
  if (offTopic.length > 0) console.log(`off-topic answered "nothing relevant": ${offTopic.filter(saidNothingRelevant).length}/${offTopic.length}`);
  if (topics.length > 0) console.log(`topics answered: ${topics.filter(gotSnippets).length}/${topics.length}`);
  console.log(`Wrote ${displayPath(options.out)}`);
  return o.errors === o.n ? 1 : 0;
}

/** Asks every question of a list ({ entries: [{ library, query }] }: off-topic questions, topics) once. */
async function askEach(client: ContextClientOptions, file: string, concurrency: number): Promise<ListResult[]> {
  const doc = yaml.load(fs.readFileSync(file, 'utf8')) as { entries?: Array<{ library?: unknown; query?: unknown }> } | null;
  const entries = (doc?.entries ?? []).map((e, i) => {
    if (typeof e?.library !== 'string' || typeof e.query !== 'string') throw new DatasetError(`${file}: entry ${i + 1} needs a library and a query.`);
    return { library: e.library, query: e.query };
  });
  if (entries.length === 0) throw new DatasetError(`${file}: expected a non-empty \`entries:\` list of { library, query }.`);
  return mapPool(entries, concurrency, async (e) => {
    const call = await fetchContext(client, e.library, e.query);
    return {
      library: e.library,
      query: e.query,
      status: call.status,
      ...(call.error ? { error: call.error } : {}),
      tokens: call.tokens,
      snippets: call.snippets.length,
    };
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof UsageError || error instanceof DatasetError ? error.message : `eval failed: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = error instanceof UsageError || error instanceof DatasetError ? 2 : 1;
  },
);
