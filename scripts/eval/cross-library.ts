/**
 * The cross-library eval: every question of eval/cross-library.yaml asked of its two libraries
 * through GET /v2/search (JSON) on a running server; S-Hit@3 (a labelled section among the
 * first three snippets), both@5 (a labelled section of each library among the first five),
 * libraries answering, tokens. `npx tsx scripts/eval/cross-library.ts [eval/cross-library.yaml]
 * [--url http://127.0.0.1:3000] [--scope all]` (with --scope the libraries are not named: the
 * whole catalogue is searched).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import yaml from 'js-yaml';

interface Label {
  library: string;
  path: string;
  heading?: string;
}
interface Question {
  query: string;
  libraries: string[];
  labels: Label[];
}
interface Snippet {
  libraryId: string;
  source: { path: string };
  breadcrumb: string[];
  title: string;
  tokens: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: 'string', default: process.env.SHELFMARK_URL ?? 'http://127.0.0.1:3000' },
    scope: { type: 'string' },
    tokens: { type: 'string', default: '5000' },
  },
});
const file = positionals[0] ?? 'eval/cross-library.yaml';
const questions = (yaml.load(fs.readFileSync(file, 'utf8')) as { questions: Question[] }).questions;

const matches = (s: Snippet, l: Label) =>
  s.libraryId === l.library &&
  s.source.path === l.path &&
  (!l.heading || [...s.breadcrumb, s.title].join(' > ').toLowerCase().includes(l.heading.toLowerCase()));

let hit3 = 0;
let both5 = 0;
let tokens = 0;
for (const q of questions) {
  const url = new URL('/v2/search', values.url);
  url.searchParams.set('query', q.query);
  url.searchParams.set('type', 'json');
  url.searchParams.set('tokens', values.tokens ?? '5000');
  if (values.scope) url.searchParams.set('scope', values.scope);
  else url.searchParams.set('libraries', q.libraries.join(','));
  const res = await fetch(url);
  const body = (await res.json()) as { snippets?: Snippet[]; message?: string };
  const snippets = body.snippets ?? [];
  const rank = snippets.findIndex((s) => q.labels.some((l) => matches(s, l)));
  const top5 = snippets.slice(0, 5);
  const each = q.libraries.every((lib) => top5.some((s) => q.labels.some((l) => l.library === lib && matches(s, l))));
  if (rank >= 0 && rank < 3) hit3++;
  if (each) both5++;
  tokens += snippets.reduce((n, s) => n + s.tokens, 0);
  const libs = [...new Set(snippets.map((s) => s.libraryId))].join(' ');
  console.log(
    `${rank >= 0 && rank < 3 ? 'HIT ' : 'miss'} ${each ? 'both' : '    '} first@${rank < 0 ? '-' : rank + 1} ${res.status} ${q.query.slice(0, 70)} [${libs}]${body.message ? ` ${body.message}` : ''}`,
  );
}
const n = questions.length;
console.log(
  `\nS-Hit@3 ${(hit3 / n).toFixed(3)} (${hit3}/${n})  both@5 ${(both5 / n).toFixed(3)} (${both5}/${n})  mean tokens ${Math.round(tokens / n)}  (${values.scope ? `scope=${values.scope}` : 'libraries named'})`,
);
