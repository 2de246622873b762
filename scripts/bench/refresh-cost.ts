/**
 * What a refresh costs: indexes one corpus repository (a folder of shared/corpus/repos) as a
 * local Git library on a private database and index prefix, then runs a refresh with no
 * change and a refresh after a one-file change, and prints for each the job's time after the
 * fetch (from the "cloned" log entry, or the listing of the remote's refs when a check needs
 * no clone, to the end), the files changed, the snippets written and retired.
 *
 *   SHELFMARK_DATA_DIR=/work/main/.data npx tsx scripts/bench/refresh-cost.ts [repo folder …] [--log]
 *
 * `--log` also prints the one-file refresh's job log with the time between entries.
 *
 * Several folders make one library (each in its own subfolder). Default: sqlalchemy + flask
 * from ../shared/corpus/repos (about 5,500 snippets). Everything it made is dropped at the end.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createServices, openStores, portsOf } from '../../src/services';
import { dropTestStores } from '../../test/drop-stores';
import type { Ports } from '../../src/ports';
import { addRepository, refreshLibrary } from '../../src/catalog/add-repo';
import type { JobRecord } from '../../src/store/models/job';

const principal = { kind: 'service' } as const;
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'shelfmark',
  GIT_AUTHOR_EMAIL: 'cost@shelfmark',
  GIT_COMMITTER_NAME: 'shelfmark',
  GIT_COMMITTER_EMAIL: 'cost@shelfmark',
};

/** One repository of the sources' newest versions (several: each in a folder of its own name, for a bigger library). */
function buildRepo(sources: string[], bare: string): string {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-cost-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: work, env, stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  git('init', '-q', '-b', 'main');
  for (const source of sources) fs.cpSync(source, sources.length === 1 ? work : path.join(work, path.basename(path.dirname(source))), { recursive: true });
  execFileSync('chmod', ['-R', 'u+w', work]);
  git('add', '-A');
  git('commit', '-q', '-m', 'docs');
  execFileSync('git', ['clone', '-q', '--bare', work, bare], { stdio: 'pipe' });
  git('remote', 'add', 'origin', bare);
  return work;
}

/** Appends a paragraph to the largest indexed doc file and pushes it: a one-file change. */
function changeOneFile(work: string, indexed: string[]): string {
  const files = indexed.filter((f) => /\.(md|rst)$/.test(f) && fs.existsSync(path.join(work, f)));
  const target = files.sort((a, b) => fs.statSync(path.join(work, b)).size - fs.statSync(path.join(work, a)).size)[0];
  fs.appendFileSync(path.join(work, target), '\n\nA paragraph added to measure a one-file refresh.\n');
  execFileSync('git', ['commit', '-q', '-am', 'one file'], { cwd: work, env, stdio: 'pipe' });
  execFileSync('git', ['push', '-q', 'origin', 'main'], { cwd: work, env, stdio: 'pipe' });
  return target;
}

function figures(job: JobRecord | null): string {
  if (!job) return 'job missing';
  // The fetch ends with the clone, or with the listing of the remote's refs when nothing changed.
  const cloned = job.log.find((l) => /^cloned in|^listed the remote's refs/.test(l.message));
  const fetch = cloned ? (/^cloned/.test(cloned.message) ? 'clone' : 'no clone: refs listed') : 'no fetch';
  const end = job.finishedAt ? new Date(job.finishedAt).getTime() : NaN;
  const afterFetch = cloned ? end - new Date(cloned.at).getTime() : NaN;
  const total = end - new Date(job.createdAt).getTime();
  const p = job.progress;
  const retired = job.log.map((l) => /(\d+) retired$/.exec(l.message)?.[1]).find((n) => n !== undefined);
  return `${job.state}; ${afterFetch} ms after the fetch (${fetch}; ${total} ms in all); files +${p.filesAdded ?? 0} ~${p.filesChanged ?? 0} -${p.filesRemoved ?? 0}; ${p.snippetsIndexed ?? 0} snippets written${retired ? `, ${retired} retired` : ''} (${p.snippets} served)`;
}

async function lastJob(services: Ports, libraryId: string): Promise<JobRecord | null> {
  const [job] = await services.jobs.list({ libraryId, limit: 1 });
  return job ? services.jobs.get(job._id) : null;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const given = args.filter((a) => !a.startsWith('--'));
  const folders = (given.length > 0 ? given : ['sqlalchemy__sqlalchemy', 'pallets__flask'].map((r) => path.join('..', 'shared', 'corpus', 'repos', r))).map(
    (f) => path.resolve(f),
  );
  const missing = folders.find((f) => !fs.existsSync(f));
  if (missing) {
    console.error(`No corpus repository at ${missing}: pass folders of shared/corpus/repos (../shared is absent on this machine?).`);
    process.exit(2);
  }
  // Each folder's newest version (its subfolders are versions).
  const sources = folders.map((f) =>
    path.join(
      f,
      fs
        .readdirSync(f)
        .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
        .pop() ?? '',
    ),
  );
  const name = `cost${process.pid}${crypto.randomBytes(2).toString('hex')}`;
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'warn',
    MONGODB_DB: name,
    SHELFMARK_INDEX_PREFIX: name,
    SHELFMARK_DEMO_LIBRARY: 'off',
    SCHEDULE_TICK_SECONDS: '0',
  });
  const log = createLogger('warn', process.stderr);
  const handles = await openStores(config, log);
  const composition = await createServices(config, log, handles);
  const { lifecycle } = composition;
  const services = portsOf(composition);
  lifecycle.startWorker();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-cost-git-'));
  const bare = path.join(root, 'acme', 'big.git');
  let work: string | undefined;
  try {
    console.log(`building one Git repository from ${sources.join(' + ')} …`);
    work = buildRepo(sources, bare);
    const override = { bases: { github: `file://${root}` }, waitMs: 30 * 60 * 1000 };
    let t = Date.now();
    await addRepository(services, principal, 'github', { docsRepoUrl: `file://${root}/acme/big` }, override);
    const lib = await services.libraries.get('/acme/big', { fresh: true });
    const snippets = lib?.versions.find((v) => v.version === 'latest')?.totalSnippets ?? 0;
    console.log(`first build: ${snippets} snippets in ${Date.now() - t} ms — ${figures(await lastJob(services, '/acme/big'))}`);

    t = Date.now();
    await refreshLibrary(services, principal, { libraryName: '/acme/big' }, 30 * 60 * 1000);
    console.log(`no-change refresh: ${figures(await lastJob(services, '/acme/big'))}`);

    const manifest = await handles.models.Manifest.findById('/acme/big@latest').lean();
    const changed = changeOneFile(
      work,
      (manifest?.files ?? []).map((f) => f.p),
    );
    const refreshed = await refreshLibrary(services, principal, { libraryName: '/acme/big' }, 30 * 60 * 1000).catch((error: unknown) => error as Error);
    const oneFile = await lastJob(services, '/acme/big');
    if (refreshed instanceof Error) {
      // What the job said before it failed, so the run tells what to fix.
      for (const l of oneFile?.log.slice(-15) ?? []) console.error(`  ${l.level} ${l.message.slice(0, 300)}`);
      throw refreshed;
    }
    console.log(`one-file change (${changed}): ${figures(oneFile)}`);
    if (args.includes('--log') && oneFile) {
      // Where the time after the fetch went: each log entry with its offset from the previous one.
      let last = new Date(oneFile.log[0]?.at ?? oneFile.createdAt).getTime();
      for (const l of oneFile.log) {
        const at = new Date(l.at).getTime();
        console.log(`  +${String(at - last).padStart(6)} ms  ${l.message.slice(0, 140)}`);
        last = at;
      }
      if (oneFile.finishedAt) console.log(`  +${String(new Date(oneFile.finishedAt).getTime() - last).padStart(6)} ms  (finished)`);
    }
  } finally {
    await lifecycle.worker?.stop();
    await dropTestStores({ es: handles.es, prefix: name, mongo: handles.mongo });
    await lifecycle.close();
    fs.rmSync(root, { recursive: true, force: true });
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
