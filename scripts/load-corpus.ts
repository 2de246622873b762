/**
 * `npm run load -- <dir>`: bulk-loads a folder laid out like shared/corpus (MANIFEST.tsv and
 * repos/<owner>__<repo>/<version>/). Each library becomes a local Git repository with one
 * commit per version, tagged with the version, and is added through the same pipeline a
 * user's POST /v2/add/repo/github goes through. A second run with nothing changed is a
 * fast no-op (a fingerprint of each library's files is kept beside its repository).
 *
 * `npm run load -- <bundle.shelfmark.gz | folder of bundles> ...` imports library bundles
 * (docs/BUNDLES.md) instead, through the same use case as POST /v2/libraries/import; an
 * unchanged bundle is a no-op.
 *
 * Options: --only <libraryId,...>   --force (rebuild even when unchanged; bundles: replace newer builds)
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { loadConfig } from '../src/config';
import { writeBareRepo } from '../src/util/git-snapshot';
import { createLogger } from '../src/logger';
import { createServices, type Services } from '../src/services';
import { addRepository } from '../src/libraries/add-repo';
import { importBundle } from '../src/libraries/bundles/import';

interface ManifestRow {
  library: string;
  version: string;
  sourceRepo: string;
  ref: string;
  commit: string;
}

export function readManifest(dir: string): ManifestRow[] {
  const lines = fs.readFileSync(path.join(dir, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const header = lines[0].split('\t');
  const col = (name: string) => header.indexOf(name);
  return lines.slice(1).map((line) => {
    const c = line.split('\t');
    return { library: c[col('library')], version: c[col('version')], sourceRepo: c[col('source_repo')], ref: c[col('ref')], commit: c[col('commit')] };
  });
}

function fingerprint(dirs: string[]): string {
  const h = crypto.createHash('sha256');
  for (const dir of dirs) {
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        const full = path.join(d, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.isFile()) {
          const st = fs.statSync(full);
          h.update(`${path.relative(dir, full)}\0${st.size}\0${st.mtimeMs}\n`);
        }
      }
    };
    h.update(`${dir}\n`);
    walk(dir);
  }
  return h.digest('hex');
}

const BRANCH_NAMES = new Set(['main', 'master', 'HEAD']);

/** One commit per version (whole tree replaced), tagged; the last version is the branch head. */
function buildRepo(bare: string, versions: { version: string; dir: string }[]): void {
  writeBareRepo(
    bare,
    versions.map((v) => ({
      message: `docs ${v.version}`,
      tag: BRANCH_NAMES.has(v.version) ? undefined : v.version,
      fill: (work: string) => {
        fs.cpSync(v.dir, work, { recursive: true });
        execFileSync('chmod', ['-R', 'u+w', work]);
      },
    })),
    'load@shelfmark',
  );
}

export interface LoadSummary {
  library: string;
  versions: string;
  snippets: number;
  tokens: number;
  seconds: number;
  status: 'indexed' | 'unchanged' | 'failed';
  error?: string;
}

export async function loadCorpus(services: Services, corpusDir: string, options: { only?: string[]; force?: boolean; quiet?: boolean } = {}): Promise<LoadSummary[]> {
  const rows = readManifest(corpusDir);
  const byLib = new Map<string, ManifestRow[]>();
  for (const r of rows) if (!options.only || options.only.includes(r.library)) byLib.set(r.library, [...(byLib.get(r.library) ?? []), r]);
  const gitRoot = path.join(services.config.dataDir, 'corpus-git');
  const bars = options.quiet ? undefined : new cliProgress.MultiBar({ format: ' {bar} {lib} | {stage}', hideCursor: true, clearOnComplete: false }, cliProgress.Presets.shades_classic);
  const summary: LoadSummary[] = [];
  const principal = { kind: 'service' } as const;

  for (const [library, versions] of byLib) {
    const started = Date.now();
    const [, owner, repo] = library.split('/');
    const dirs = versions.map((v) => ({ version: v.version, dir: path.join(corpusDir, 'repos', `${owner}__${repo}`, v.version) }));
    const bare = path.join(gitRoot, owner, `${repo}.git`);
    const stampFile = `${bare}.fingerprint`;
    const fp = fingerprint(dirs.map((d) => d.dir));
    const created = bars?.create(versions.length + 1, 0, { lib: library, stage: 'checking' });
    const bar = created && { update: (n: number, p: { stage: string }) => created.update(n, { lib: library, ...p }) };
    const lib = await services.libraries.get(library, { fresh: true });
    const built = lib ? new Set(lib.versions.filter((v) => v.generation > 0).flatMap((v) => [v.version, ...(v.tags ?? [])])) : new Set<string>();
    const latestVersion = versions[versions.length - 1].version;
    const complete = lib && built.has('latest') && versions.slice(0, -1).every((v) => built.has(v.version));
    if (!options.force && complete && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === fp) {
      bar?.update(versions.length + 1, { stage: 'unchanged' });
      const latest = lib.versions.find((v) => v.version === 'latest');
      summary.push({ library, versions: versions.map((v) => v.version).join(', '), snippets: sumSnippets(lib.versions), tokens: sumTokens(lib.versions), seconds: (Date.now() - started) / 1000, status: 'unchanged' });
      void latest;
      continue;
    }
    try {
      bar?.update(0, { stage: 'building git repository' });
      buildRepo(bare, dirs);
      const upstream = versions[0].sourceRepo.replace(/\/+$/, '');
      const linkRefs = versions.map((v) => ({ version: v.version, ref: v.ref === 'HEAD' ? v.commit : v.ref }));
      linkRefs.push({ version: 'latest', ref: linkRefs[linkRefs.length - 1].ref });
      const override = { bases: { github: `file://${gitRoot}` }, waitMs: 30 * 60 * 1000, linkBase: upstream, linkRefs };
      bar?.update(1, { stage: `indexing latest (${latestVersion})` });
      await addRepository(services, principal, 'github', { docsRepoUrl: `file://${gitRoot}/${owner}/${repo}` }, override);
      for (const [i, v] of versions.slice(0, -1).entries()) {
        bar?.update(2 + i, { stage: `indexing ${v.version}` });
        await addRepository(services, principal, 'github', { docsRepoUrl: `file://${gitRoot}/${owner}/${repo}/tree/${v.version}` }, override);
      }
      fs.writeFileSync(stampFile, fp);
      const after = await services.libraries.get(library, { fresh: true });
      bar?.update(versions.length + 1, { stage: 'done' });
      summary.push({ library, versions: versions.map((v) => v.version).join(', '), snippets: sumSnippets(after?.versions ?? []), tokens: sumTokens(after?.versions ?? []), seconds: (Date.now() - started) / 1000, status: 'indexed' });
    } catch (error) {
      bar?.update(versions.length + 1, { stage: `FAILED: ${(error as Error).message}` });
      summary.push({ library, versions: versions.map((v) => v.version).join(', '), snippets: 0, tokens: 0, seconds: (Date.now() - started) / 1000, status: 'failed', error: (error as Error).message });
    }
  }
  bars?.stop();
  return summary;
}

/** The bundle files among `args`: files as given, folders for their `*.shelfmark.gz` (sorted). */
export function bundleFiles(args: string[]): string[] {
  return args.flatMap((arg) => {
    if (!fs.existsSync(arg)) return [];
    if (fs.statSync(arg).isFile()) return [arg];
    if (fs.existsSync(path.join(arg, 'MANIFEST.tsv'))) return [];
    return fs.readdirSync(arg).filter((n) => n.endsWith('.shelfmark.gz')).sort().map((n) => path.join(arg, n));
  });
}

/** Imports bundles one by one (each in one step); a bad one is reported and the rest go on. */
export async function loadBundles(services: Services, files: string[], options: { force?: boolean; quiet?: boolean } = {}): Promise<LoadSummary[]> {
  const summary: LoadSummary[] = [];
  const bar = options.quiet ? undefined : new cliProgress.SingleBar({ format: ' {bar} {value}/{total} bundles | {file}: {snippets} snippets', hideCursor: true }, cliProgress.Presets.shades_classic);
  bar?.start(files.length, 0, { file: '', snippets: 0 });
  for (const [i, file] of files.entries()) {
    const started = Date.now();
    bar?.update(i, { file: path.basename(file), snippets: 0 });
    try {
      const result = await importBundle(services, fs.createReadStream(file), {
        force: options.force ?? false,
        maxBytes: services.config.bundleMaxBytes,
        onProgress: (n) => bar?.update(i, { file: path.basename(file), snippets: n }),
      });
      const snippets = result.versions.reduce((n, v) => n + v.snippets, 0);
      summary.push({ library: result.libraryName, versions: result.versions.map((v) => v.version).join(', '), snippets, tokens: 0, seconds: (Date.now() - started) / 1000, status: result.status === 'unchanged' ? 'unchanged' : 'indexed' });
    } catch (error) {
      summary.push({ library: path.basename(file), versions: '', snippets: 0, tokens: 0, seconds: (Date.now() - started) / 1000, status: 'failed', error: (error as Error).message });
    }
  }
  bar?.update(files.length, { file: 'done', snippets: 0 });
  bar?.stop();
  return summary;
}

function sumSnippets(v: { totalSnippets: number }[]): number {
  return v.reduce((n, x) => n + x.totalSnippets, 0);
}
function sumTokens(v: { totalTokens: number }[]): number {
  return v.reduce((n, x) => n + x.totalTokens, 0);
}

export function printSummary(summary: LoadSummary[], seconds: number): void {
  const rows = summary.map((s) => [s.library, s.versions, String(s.snippets), String(s.tokens), s.seconds.toFixed(1), s.status + (s.error ? `: ${s.error}` : '')]);
  const head = ['library', 'versions', 'snippets', 'tokens', 'seconds', 'status'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(`\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of rows) console.log(line(r));
  const total = summary.reduce((n, s) => n + s.snippets, 0);
  console.log(`\n${summary.length} libraries, ${total} snippets, ${seconds.toFixed(1)} s total; ${summary.filter((s) => s.status === 'failed').length} failed`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const onlyIdx = args.indexOf('--only');
  const only = onlyIdx !== -1 ? args[onlyIdx + 1]?.split(',') : undefined;
  // The value after --only is not a folder (without --only, nothing is skipped: the first argument is one).
  const positional = args.filter((a, i) => !a.startsWith('--') && (onlyIdx === -1 || i !== onlyIdx + 1));
  const dir = positional[0] ?? path.resolve('..', 'shared', 'corpus');
  const bundles = bundleFiles(positional);
  if (bundles.length === 0 && !fs.existsSync(path.join(dir, 'MANIFEST.tsv'))) {
    console.error(`No MANIFEST.tsv and no *.shelfmark.gz bundle in ${positional.join(', ') || dir}: pass a folder laid out like shared/corpus, or bundle files (or a folder of them).`);
    process.exit(2);
  }
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  const services = await createServices(config, createLogger(config.logLevel, process.stderr));
  if (bundles.length === 0) services.startWorker();
  const started = Date.now();
  try {
    const summary = bundles.length > 0 ? await loadBundles(services, bundles, { force: args.includes('--force') }) : await loadCorpus(services, path.resolve(dir), { only, force: args.includes('--force') });
    printSummary(summary, (Date.now() - started) / 1000);
    process.exitCode = summary.some((s) => s.status === 'failed') ? 1 : 0;
    // The server compacts 10 s after its last build; this process ends sooner and would
    // leave every build's segments behind (a context query reads each of them: ~1.5x the
    // Elasticsearch CPU of one merged segment), so it merges before it exits (a no-op on
    // an index of one segment).
    const mergeStarted = Date.now();
    const { segmentsBefore, merged } = await services.snippets.compact();
    if (merged) console.log(`merged the snippets index from ${segmentsBefore} segments into one in ${((Date.now() - mergeStarted) / 1000).toFixed(1)} s`);
  } finally {
    await services.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });
}
