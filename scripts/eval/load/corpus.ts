/**
 * `npm run load -- <dir>` (scripts/eval/load-corpus.ts): bulk-loads a folder laid out like
 * shared/corpus (MANIFEST.tsv and repos/<owner>__<repo>/<version>/). Each library becomes a
 * local Git repository with one commit per version, tagged with the version, and is added
 * through the same pipeline a user's POST /v2/add/repo/github goes through. A second run with
 * nothing changed is a fast no-op (a fingerprint of each library's files is kept beside its
 * repository).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeBareRepo } from '../../../src/util/git-snapshot';
import type { Ports } from '../../../src/ports';
import { addRepository } from '../../../src/catalog/add-repo';
import { createProgress } from './progress';

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

export async function loadCorpus(
  services: Ports,
  corpusDir: string,
  options: { only?: string[]; force?: boolean; quiet?: boolean } = {},
): Promise<LoadSummary[]> {
  const rows = readManifest(corpusDir);
  const byLib = new Map<string, ManifestRow[]>();
  for (const r of rows) if (!options.only || options.only.includes(r.library)) byLib.set(r.library, [...(byLib.get(r.library) ?? []), r]);
  const gitRoot = path.join(services.config.dataDir, 'corpus-git');
  const progress = createProgress(byLib.size, 'libraries', { quiet: options.quiet });
  const summary: LoadSummary[] = [];
  const principal = { kind: 'service' } as const;

  for (const [library, versions] of byLib) {
    const started = Date.now();
    const [, owner, repo] = library.split('/');
    const dirs = versions.map((v) => ({ version: v.version, dir: path.join(corpusDir, 'repos', `${owner}__${repo}`, v.version) }));
    const bare = path.join(gitRoot, owner, `${repo}.git`);
    const stampFile = `${bare}.fingerprint`;
    const fp = fingerprint(dirs.map((d) => d.dir));
    const done = summary.length;
    const bar = { update: (_step: number, p: { stage: string }) => progress.update(done, `${library}: ${p.stage}`) };
    const lib = await services.libraries.get(library, { fresh: true });
    const built = lib ? new Set(lib.versions.filter((v) => v.generation > 0).flatMap((v) => [v.version, ...(v.tags ?? [])])) : new Set<string>();
    const latestVersion = versions[versions.length - 1].version;
    const complete = lib && built.has('latest') && versions.slice(0, -1).every((v) => built.has(v.version));
    if (!options.force && complete && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === fp) {
      bar.update(versions.length + 1, { stage: 'unchanged' });
      const latest = lib.versions.find((v) => v.version === 'latest');
      summary.push({
        library,
        versions: versions.map((v) => v.version).join(', '),
        snippets: sumSnippets(lib.versions),
        tokens: sumTokens(lib.versions),
        seconds: (Date.now() - started) / 1000,
        status: 'unchanged',
      });
      void latest;
      continue;
    }
    try {
      bar.update(0, { stage: 'building git repository' });
      buildRepo(bare, dirs);
      const upstream = versions[0].sourceRepo.replace(/\/+$/, '');
      const linkRefs = versions.map((v) => ({ version: v.version, ref: v.ref === 'HEAD' ? v.commit : v.ref }));
      linkRefs.push({ version: 'latest', ref: linkRefs[linkRefs.length - 1].ref });
      const override = { bases: { github: `file://${gitRoot}` }, waitMs: 30 * 60 * 1000, linkBase: upstream, linkRefs };
      bar.update(1, { stage: `indexing latest (${latestVersion})` });
      await addRepository(services, principal, 'github', { docsRepoUrl: `file://${gitRoot}/${owner}/${repo}` }, override);
      for (const [i, v] of versions.slice(0, -1).entries()) {
        bar.update(2 + i, { stage: `indexing ${v.version}` });
        await addRepository(services, principal, 'github', { docsRepoUrl: `file://${gitRoot}/${owner}/${repo}/tree/${v.version}` }, override);
      }
      fs.writeFileSync(stampFile, fp);
      const after = await services.libraries.get(library, { fresh: true });
      bar.update(versions.length + 1, { stage: 'done' });
      summary.push({
        library,
        versions: versions.map((v) => v.version).join(', '),
        snippets: sumSnippets(after?.versions ?? []),
        tokens: sumTokens(after?.versions ?? []),
        seconds: (Date.now() - started) / 1000,
        status: 'indexed',
      });
    } catch (error) {
      progress.note(`${library}: FAILED: ${(error as Error).message}`);
      summary.push({
        library,
        versions: versions.map((v) => v.version).join(', '),
        snippets: 0,
        tokens: 0,
        seconds: (Date.now() - started) / 1000,
        status: 'failed',
        error: (error as Error).message,
      });
    }
  }
  progress.stop(summary.length);
  return summary;
}

function sumSnippets(v: { totalSnippets: number }[]): number {
  return v.reduce((n, x) => n + x.totalSnippets, 0);
}
function sumTokens(v: { totalTokens: number }[]): number {
  return v.reduce((n, x) => n + x.totalTokens, 0);
}

export function printSummary(summary: LoadSummary[], seconds: number): void {
  const rows = summary.map((s) => [
    s.library,
    s.versions,
    String(s.snippets),
    String(s.tokens),
    s.seconds.toFixed(1),
    s.status + (s.error ? `: ${s.error}` : ''),
  ]);
  const head = ['library', 'versions', 'snippets', 'tokens', 'seconds', 'status'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(`\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of rows) console.log(line(r));
  const total = summary.reduce((n, s) => n + s.snippets, 0);
  console.log(`\n${summary.length} libraries, ${total} snippets, ${seconds.toFixed(1)} s total; ${summary.filter((s) => s.status === 'failed').length} failed`);
}
