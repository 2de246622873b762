/**
 * `npm run fidelity -- <repo> [<repo> ...]`: indexes local Git repositories (bare or with a
 * work tree) through the real pipeline — the same add-repository use case and worker a
 * user's request goes through — on private, temporary stores, and prints per repository
 * how faithful its snippets are to what the docs' readers see: snippets, code snippets,
 * placeholders (include directives left as written), non-English snippets, code without
 * a language, snippets with leftover markup in their prose, duplicate snippets, sections
 * whose start line is not their heading's line in the page as written, the
 * benchmark score and the load time; and how readable its snippets are as units (snippets/
 * shape.ts): prose that announces an example it does not hold ("…as follows:"), sections
 * split into prose and code twins, later parts of long sections and the largest snippet, pages
 * of each kind (and the maintainers' pages and stubs among them), include directives resolved
 * and left. The stores are dropped afterwards.
 *
 * A repository is named by its folder (`/work/.mirror/rust-lang+book/repo` → rust-lang/book;
 * otherwise the folder name); `--json` prints the rows as JSON as well; `--flagged` lists each
 * snippet a check counted (path:line, heading, the checks) after the table, to act on.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createServices, openStores, portsOf } from '../../src/services';
import { dropTestStores } from '../../test/drop-stores';
import type { Ports } from '../../src/ports';
import { addRepository } from '../../src/catalog/add-repo';
import { duplicateIndexes, hasLeftoverMarkup, hasPlaceholder, isNonEnglish, misplacedStart } from '../../src/indexing/snippets/fidelity';
import { announcesMissingExample, snippetShape } from '../../src/indexing/snippets/shape';
import { maintainersPageReason } from '../../src/indexing/discover/defaults';

interface Row {
  repo: string;
  files: number;
  snippets: number;
  code: number;
  placeholders: number;
  nonEnglish: number;
  noLanguage: number;
  leftoverMarkup: number;
  duplicates: number;
  /** Sections whose start line is not their heading's line in the page as written (source links off). */
  misplaced: number;
  dangling: number;
  twins: number;
  laterParts: number;
  largest: number;
  junk: number;
  kinds: string;
  includes: string;
  benchmark: number;
  seconds: number;
  error?: string;
  /** `--flagged`: each snippet a check counted, as `path:line heading — checks`. */
  flagged: string[];
}

function repoName(dir: string): { owner: string; name: string } {
  const abs = path.resolve(dir);
  const mirror = /([^/]+)\+([^/]+)\/repo\/?$/.exec(abs);
  if (mirror) return { owner: mirror[1], name: mirror[2] };
  return { owner: 'local', name: path.basename(abs).replace(/\.git$/, '') };
}

async function measure(services: Ports, root: string, dir: string): Promise<Row> {
  const { owner, name } = repoName(dir);
  const link = path.join(root, owner, `${name}.git`);
  fs.mkdirSync(path.dirname(link), { recursive: true });
  const gitDir = fs.existsSync(path.join(dir, '.git')) ? path.join(dir, '.git') : dir;
  fs.symlinkSync(path.resolve(gitDir), link);
  const started = Date.now();
  const row: Row = {
    repo: `${owner}/${name}`,
    files: 0,
    snippets: 0,
    code: 0,
    placeholders: 0,
    nonEnglish: 0,
    noLanguage: 0,
    leftoverMarkup: 0,
    duplicates: 0,
    misplaced: 0,
    dangling: 0,
    twins: 0,
    laterParts: 0,
    largest: 0,
    junk: 0,
    kinds: '',
    includes: '',
    benchmark: 0,
    seconds: 0,
    flagged: [],
  };
  try {
    await addRepository(
      services,
      { kind: 'service' },
      'github',
      { docsRepoUrl: `file://${root}/${owner}/${name}` },
      { bases: { github: `file://${root}` }, waitMs: 60 * 60 * 1000 },
    );
  } catch (error) {
    row.error = (error as Error).message;
  }
  row.seconds = (Date.now() - started) / 1000;
  const lib = await services.libraries.get(`/${owner}/${name}`, { fresh: true });
  const latest = lib?.versions.find((v) => v.version === 'latest');
  if (!latest) return row;
  const docs = await services.snippets.read({
    libraryId: `/${owner}/${name}`,
    version: 'latest',
    generation: latest.generation,
    baseGeneration: latest.baseGeneration,
  });
  docs.sort((a, b) => a.path.localeCompare(b.path) || a.startLine - b.startLine);
  row.files = new Set(docs.map((d) => d.path)).size;
  row.snippets = docs.length;
  row.code = docs.filter((d) => d.kind === 'code').length;
  row.placeholders = docs.filter(hasPlaceholder).length;
  row.nonEnglish = docs.filter(isNonEnglish).length;
  row.noLanguage = docs.filter((d) => d.kind === 'code' && !d.language.trim()).length;
  row.leftoverMarkup = docs.filter(hasLeftoverMarkup).length;
  const duplicates = duplicateIndexes(docs);
  row.duplicates = duplicates.size;
  const pages = new Map<string, string[]>();
  const linesOf = (file: string): string[] => {
    let lines = pages.get(file);
    if (!lines) {
      lines = pageAtHead(gitDir, file).split('\n');
      pages.set(file, lines);
    }
    return lines;
  };
  const misplaced = new Set(docs.flatMap((d, i) => (misplacedStart(d, linesOf(d.path)) ? [i] : [])));
  row.misplaced = misplaced.size;
  row.flagged = docs.flatMap((d, i) => {
    const checks = [
      hasPlaceholder(d) && 'placeholder',
      isNonEnglish(d) && 'non-English',
      d.kind === 'code' && !d.language.trim() && 'no language',
      hasLeftoverMarkup(d) && 'leftover markup',
      duplicates.has(i) && 'duplicate',
      misplaced.has(i) && 'misplaced start line',
      announcesMissingExample(d) && 'dangling "as follows:"',
    ].filter((c): c is string => typeof c === 'string');
    return checks.length > 0 ? [`${d.path}:${d.startLine} ${d.breadcrumb.join(' > ') || d.title} — ${checks.join(', ')}`] : [];
  });
  const shape = snippetShape(docs, (p) => maintainersPageReason(p) !== undefined);
  row.dangling = shape.dangling;
  row.twins = shape.twins;
  row.laterParts = shape.laterParts;
  row.largest = shape.largest;
  row.junk = shape.junkPages;
  row.kinds = Object.entries(shape.pagesByKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const [job] = await services.jobs.list({ libraryId: `/${owner}/${name}`, limit: 1 });
  const includes = job?.log.map((l) => /resolved (\d+) includes; (\d+) left as written/.exec(l.message)).find((m) => m);
  row.includes = includes ? `${includes[1]} / ${includes[2]}` : '0 / 0';
  row.benchmark = latest.benchmarkScore;
  return row;
}

/** A page's text at the repository's HEAD (the commit indexed), '' when it cannot be read. */
function pageAtHead(gitDir: string, file: string): string {
  try {
    return execFileSync('git', ['--git-dir', gitDir, 'show', `HEAD:${file}`], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return '';
  }
}

function print(rows: Row[]): void {
  const head = [
    'repo',
    'files',
    'snippets',
    'code',
    'placeholders',
    'non-English',
    'no language',
    'leftover markup',
    'duplicates',
    'misplaced lines',
    'dangling "as follows:"',
    'twins',
    'later parts',
    'largest',
    'junk pages',
    'includes ok / left',
    'benchmark',
    'seconds',
  ];
  const cells = rows.map((r) =>
    [
      r.repo,
      r.files,
      r.snippets,
      r.code,
      r.placeholders,
      r.nonEnglish,
      r.noLanguage,
      r.leftoverMarkup,
      r.duplicates,
      r.misplaced,
      r.dangling,
      r.twins,
      r.laterParts,
      r.largest,
      r.junk,
      r.includes,
      r.benchmark,
      r.seconds.toFixed(1),
    ].map(String),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join('  ');
  console.log(line(head));
  for (const c of cells) console.log(line(c));
  for (const r of rows) console.log(`${r.repo} pages by kind: ${r.kinds || '-'}`);
  for (const r of rows.filter((x) => x.error)) console.log(`${r.repo}: ${r.error}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dirs = args.filter((a) => !a.startsWith('--'));
  if (dirs.length === 0) {
    console.error('Usage: npm run fidelity -- <git repository folder> [...] [--json] [--flagged]');
    process.exit(2);
  }
  for (const d of dirs) {
    if (!fs.existsSync(path.join(d, 'HEAD')) && !fs.existsSync(path.join(d, '.git'))) {
      console.error(`${d} is not a Git repository (no HEAD or .git): pass a bare repository or a clone.`);
      process.exit(2);
    }
  }
  const name = `fidelity${crypto.randomBytes(4).toString('hex')}`;
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', MONGODB_DB: name, SHELFMARK_INDEX_PREFIX: name });
  const log = createLogger(config.logLevel, process.stderr);
  const handles = await openStores(config, log);
  const composition = await createServices(config, log, handles);
  const { lifecycle } = composition;
  const services = portsOf(composition);
  lifecycle.startWorker();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-fidelity-'));
  const rows: Row[] = [];
  try {
    for (const d of dirs) {
      process.stderr.write(`indexing ${d} ...\n`);
      rows.push(await measure(services, root, d));
    }
    print(rows);
    if (args.includes('--flagged')) for (const r of rows) for (const f of r.flagged) console.log(`${r.repo} ${f}`);
    if (args.includes('--json')) console.log(JSON.stringify(rows.map(({ flagged: _flagged, ...r }) => r)));
  } finally {
    await lifecycle.worker?.stop();
    await dropTestStores({ es: handles.es, prefix: config.indexPrefix, mongo: handles.mongo });
    await lifecycle.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
