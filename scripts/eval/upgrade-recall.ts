/**
 * Recall of upgrade guides: for each entry of eval/upgrade-guides.yaml, the breaking changes the
 * project's own migration guide lists (its leaf headings, read from the corpus files) or a list
 * given by hand, and how many of them page 1 of GET /v2/upgrade-guide names. Prints each guide's
 * misses and the totals. `npx tsx scripts/eval/upgrade-recall.ts [eval/upgrade-guides.yaml]
 * [--corpus ../shared/corpus] [--url http://127.0.0.1:3000] [--tokens 5000] [--show]` (--show
 * prints each page 1).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import yaml from 'js-yaml';

interface Guide {
  library: string;
  from: string;
  to: string;
  file?: string;
  skipUnder?: string[];
  changes?: string[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: 'string', default: process.env.SHELFMARK_URL ?? 'http://127.0.0.1:3000' },
    corpus: { type: 'string', default: '../shared/corpus' },
    tokens: { type: 'string', default: '5000' },
    show: { type: 'boolean', default: false },
  },
});
const guides = (yaml.load(fs.readFileSync(positionals[0] ?? 'eval/upgrade-guides.yaml', 'utf8')) as { guides: Guide[] }).guides;

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[`*_"'’]/g, '')
    .replace(/[^a-z0-9$.]+/g, ' ')
    .trim();

/** The leaf headings of a Markdown file (level 2+), outside fenced code, skipping those under `skipUnder`. */
export function listedChanges(markdown: string, skipUnder: readonly string[]): string[] {
  const headings: Array<{ level: number; text: string }> = [];
  let fence = false;
  // MDX comments ({/* … */}) hide what they hold from readers: not listed.
  for (const line of markdown.replace(/\{\/\*[\s\S]*?\*\/\}/g, '').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const m = !fence && /^(#{2,6})\s+(.*?)\s*#*\s*$/.exec(line);
    // Inline HTML (VitePress badges) and links' targets are markup, not the heading's words.
    if (m)
      headings.push({
        level: m[1]!.length,
        text: m[2]!
          .replace(/<[^>]*>/g, '')
          .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
          .replace(/\s+/g, ' ')
          .trim(),
      });
  }
  const out: string[] = [];
  const path: string[] = [];
  headings.forEach((h, i) => {
    path.length = h.level - 2;
    path[h.level - 2] = h.text;
    const leaf = !(headings[i + 1] && headings[i + 1]!.level > h.level);
    if (leaf && !path.some((p) => skipUnder.includes(p))) out.push(h.text);
  });
  return out;
}

let found = 0;
let total = 0;
for (const g of guides) {
  const changes = g.changes ?? listedChanges(fs.readFileSync(path.join(values.corpus ?? '', 'repos', g.file ?? ''), 'utf8'), g.skipUnder ?? []);
  const url = new URL('/v2/upgrade-guide', values.url);
  for (const [k, v] of Object.entries({ libraryId: g.library, from: g.from, to: g.to, tokens: values.tokens ?? '5000' })) url.searchParams.set(k, v);
  const res = await fetch(url);
  const page = await res.text();
  const text = norm(page);
  const missed = changes.filter((c) => !text.includes(norm(c)));
  found += changes.length - missed.length;
  total += changes.length;
  console.log(`${g.library} ${g.from} → ${g.to}: ${changes.length - missed.length}/${changes.length} listed breaking changes on page 1 (${res.status})`);
  for (const m of missed) console.log(`   missing: ${m}`);
  if (values.show) console.log(`\n${page}\n`);
}
console.log(`\nrecall ${(found / Math.max(1, total)).toFixed(3)} (${found}/${total})`);
