import { createHash } from 'node:crypto';
import test from 'ava';
import { memoryFiles } from './commit-files';
import { readPages, type PagesContext, type ReadPages } from './pages';
import { againstPrevious, neighboursToCompare, previousDocumentHashes, type PageChecks } from './page-checks';
import type { ListedDocument } from '../sources/source';

const ctx: PagesContext = { log: () => undefined, checkpoint: async () => undefined };

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return (s >>> 8) / 0x1000000;
  };
}

const hashOf = (text: string) => createHash('sha1').update(text).digest('hex');
const documentsOf = (texts: Record<string, string>): ListedDocument[] => Object.entries(texts).map(([path, text]) => ({ path, hash: hashOf(text) }));

/** What a build of the pages decided: the pages kept, and each left-out page's verdict. */
function verdicts(read: ReadPages): { pages: string[]; left: string[] } {
  return {
    pages: read.pages.map((p) => p.file.path),
    left: read.checks.pages.filter((c) => c.x !== undefined).map((c) => `${c.p}:${c.x}:${c.c ?? ''}`),
  };
}

test('a refresh that reuses verdicts decides every page as a check of every page does', async (t) => {
  const next = random(17);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const words = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x`);
  const paragraphs = Array.from({ length: 14 }, () => Array.from({ length: 70 }, () => pick(words)).join(' ') + '.');
  const folders = ['docs', 'guide', 'notes', 'api', 'docs/deep'];
  const page = (): string => {
    if (next() < 0.08) return '# Moved\n\nThis page has moved to the guide.\n';
    const parts = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(paragraphs));
    return `# Page\n\n${parts.join('\n\n')}\n`;
  };
  let fast = 0;
  let full = 0;
  for (let round = 0; round < 60; round++) {
    const before: Record<string, string> = {};
    for (let i = 0; i < 18; i++) before[`${pick(folders)}/p${i}.md`] = page();
    // Now and then a print folder (copies compared by containment: never reused).
    if (next() < 0.1) before['print/book.md'] = pick(Object.values(before));
    const first = await readPages(ctx, documentsOf(before), memoryFiles(before));
    const after = { ...before };
    const paths = Object.keys(before);
    const change = next();
    if (change < 0.6) after[pick(paths)] = page();
    else if (change < 0.8) delete after[pick(paths)];
    else after[`${pick(folders)}/new${round}.md`] = next() < 0.5 ? page() : pick(Object.values(before));
    const documents = documentsOf(after);
    const reused = await readPages(ctx, documents, memoryFiles(after), {}, first.checks);
    const checked = await readPages(ctx, documents, memoryFiles(after));
    t.deepEqual(verdicts(reused), verdicts(checked), `round ${round}`);
    t.deepEqual([...reused.excluded].sort(), [...checked.excluded].sort(), `round ${round}`);
    if (reused.read < documents.length) fast++;
    else full++;
  }
  // Both ways were taken: most refreshes read only what changed, some had to check every page.
  t.true(fast > 30, `${fast} refreshes read only the changed pages`);
  t.true(full > 0, `${full} refreshes checked every page`);
});

test('verdicts are not reused across other settings (a docs configuration added, copies switched off)', async (t) => {
  const texts = { 'docs/a.md': '# A\n\nSome text about a.\n', 'notes/b.md': '# B\n\nSome text about b.\n' };
  const first = await readPages(ctx, documentsOf(texts), memoryFiles(texts));
  t.is(first.read, 2);
  const again = await readPages(ctx, documentsOf(texts), memoryFiles(texts), {}, first.checks);
  t.is(again.read, 0, 'nothing changed: nothing read');
  const withConfig = { ...texts, 'docs/mkdocs.yml': 'site_name: x\n' };
  t.is((await readPages(ctx, documentsOf(texts), memoryFiles(withConfig), {}, first.checks)).read, 2);
  t.is((await readPages(ctx, documentsOf(texts), memoryFiles(texts), { duplicatePages: { enabled: false } }, first.checks)).read, 2);
});

test('no reuse when an unchanged page was a copy of one that changed, or a bucket is crowded', (t) => {
  const previous: PageChecks = {
    key: 'k',
    pages: [
      { p: 'docs/a.md', h: '1', k: [1, 2, 3, 4] },
      { p: 'notes/a.md', h: '2', x: 'copy', c: 'docs/a.md', k: [1, 2, 3, 4] },
      { p: 'docs/b.md', h: '3', k: [9, 10, 11, 12] },
    ],
  };
  const changedA = againstPrevious(
    [
      { path: 'docs/a.md', hash: 'x' },
      { path: 'notes/a.md', hash: '2' },
      { path: 'docs/b.md', hash: '3' },
    ],
    previous,
  );
  t.is(neighboursToCompare(changedA, [[50, 51, 52, 53]]), undefined, 'notes/a.md was a copy of the page that changed');
  const changedB = againstPrevious(
    [
      { path: 'docs/a.md', hash: '1' },
      { path: 'notes/a.md', hash: '2' },
      { path: 'docs/b.md', hash: 'y' },
    ],
    previous,
  );
  t.deepEqual(neighboursToCompare(changedB, [[60, 61, 62, 63]]), [], 'no shared hash: nothing to compare');
  t.deepEqual(neighboursToCompare(changedB, [[1, 61, 62, 63]]), ['docs/a.md', 'notes/a.md'], 'pages sharing a hash are compared');
  const crowded: PageChecks = { key: 'k', pages: Array.from({ length: 70 }, (_, i) => ({ p: `d${i}/p.md`, h: String(i), k: [7, 100 + i] })) };
  const one = againstPrevious(
    crowded.pages.map((c, i) => ({ path: c.p, hash: i === 0 ? 'new' : c.h })),
    crowded,
  );
  t.is(neighboursToCompare(one, [[500, 501]]), undefined, 'its previous sketch shares a hash with more than a bucket window of pages');
  t.is(neighboursToCompare(againstPrevious([{ path: 'print/a.md', hash: 'z' }], previous), []), undefined, 'a copy folder');
});

test("file counts compare the documents' own hashes; older manifests count includes by their blob", (t) => {
  const files = [
    { p: 'a.md', h: 'blob1+abc' },
    { p: 'b.md', h: 'blob2' },
  ];
  t.deepEqual(
    [...previousDocumentHashes(undefined, files)],
    [
      ['a.md', 'blob1'],
      ['b.md', 'blob2'],
    ],
  );
  const checks: PageChecks = {
    key: 'k',
    pages: [
      { p: 'a.md', h: 'blob1' },
      { p: 'stub.md', h: 'blob3', x: 'stub' },
    ],
  };
  t.deepEqual(
    [...previousDocumentHashes(checks, files)],
    [
      ['a.md', 'blob1'],
      ['stub.md', 'blob3'],
    ],
  );
});
