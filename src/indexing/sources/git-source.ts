/**
 * The Git source: clones the repository (bare), resolves the ref, lists tags, reads the
 * repo config (shelfmark.json / context7.json) and selects the doc files of the commit.
 * Its extras: code docs generated from the source when the docs have few examples, and —
 * after a build of latest — the versions the repo config lists and the library's version
 * rule asks for. A refresh first lists the remote's refs without cloning (`upToDate`) and
 * clones only when the ref moved.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JobContext } from '../jobs/worker';
import type { ParsedSnippet } from '../types';
import { cloneBare, GitSourceError, listRemote, listTags, listTree, readBlob, resolveCommit, tagsAt, type RepoFile } from './git';
import { JobFailure } from '../jobs/failure';
import { parseRepoConfig, type RepoConfig } from '../discover/config';
import { selectDocFiles } from '../discover/select';
import { decodeUtf8, looksBinary } from '../discover/binary';
import { commitFiles } from '../pipeline/commit-files';
import { generateDocsSnippets, selectSourceFiles } from '../codedocs';
import { fileUrl, isAddressableVersion } from '../../domain/library-ids';
import { clientLibraryId } from '../../domain/library-keys';
import { gitTransport } from '../pipeline/git-transport';
import type { IndexingDeps } from '../pipeline/deps';
import { applyVersionRule } from '../pipeline/version-discovery';
import { newestRelease } from '../../domain/version-rule';
import type { GitJobParams } from '../../domain/job-params';
import type { DocumentSource, SourceSnapshot } from './source';
import { keepCodeOfBuild } from '../code-trees/keep-on-build';
import { hasKeptTree } from '../code-trees/kept-tree';

/** Fewer code snippets than this from the docs: fall back to documenting the source. */
const MIN_CODE_SNIPPETS = 5;

export function gitSource(params: GitJobParams, deps: IndexingDeps): DocumentSource {
  return { open: (ctx) => openGit(ctx, params, deps), upToDate: (ctx) => unchangedWithoutClone(ctx, deps, params) };
}

async function openGit(ctx: JobContext, params: GitJobParams, deps: IndexingDeps): Promise<SourceSnapshot> {
  const job = ctx.job;
  const token = job.encryptedToken ? deps.decryptToken(job.encryptedToken) : undefined;
  const dir = path.join(deps.config.dataDir, 'clones', job._id);
  const close = () => fs.rmSync(dir, { recursive: true, force: true });
  close();
  try {
    await ctx.setState('cloning');
    const started = Date.now();
    const { repo, defaultBranch } = await cloneBare(params.cloneUrl, dir, token, gitTransport(deps.config, params.host)).catch((error: unknown) => {
      throw toJobFailure(error, job.kind === 'add-repo');
    });
    const commit = await resolveCommit(repo, params.ref ?? 'HEAD').catch(async (error: unknown) => {
      if (error instanceof GitSourceError && error.reason === 'ref_not_found') {
        const available = await listTags(repo);
        const versions = available.filter(isAddressableVersion);
        throw new JobFailure(
          'tag_not_found',
          `Version "${params.ref}" of ${clientLibraryId(job.libraryId)} does not exist. Available versions: ${versions.join(', ') || 'none'}.`,
          {
            libraryId: clientLibraryId(job.libraryId),
            availableVersions: versions,
          },
        );
      }
      throw error;
    });
    const tags = await listTags(repo);
    if (job.version === 'latest' && params.ref === undefined) await recordSourceState(deps, job.libraryId, commit.sha(), tags);
    // Tags that also address this version: only names a client can address (git allows
    // `release/1.0` and more; such a tag would be stored but never reachable).
    const commitTags = await tagsAt(repo, commit.sha(), tags);
    ctx.log('info', `cloned in ${Date.now() - started} ms; commit ${commit.sha().slice(0, 12)}; ${tags.length} tags`);
    await ctx.checkpoint();

    await ctx.setState('parsing');
    const files = await listTree(commit);
    const config = await readRepoConfig(commit, files, ctx);
    const { selected, skipped } = selectDocFiles(files, {
      config,
      skipVersionFiltering: params.skipVersionFiltering,
      maxFileBytes: deps.config.maxDocFileBytes,
      versionHint: params.ref ?? commitTags[0],
    });
    logSkipped(ctx, skipped);
    const byPath = new Map(files.map((f) => [f.path, f]));
    const documents = selected.flatMap((p) => {
      const f = byPath.get(p);
      return f ? [{ path: f.path, hash: f.oid }] : [];
    });
    await ctx.progress({ filesTotal: documents.length, filesSkipped: skipped.length });
    const sha = commit.sha();
    const repoName = clientLibraryId(job.libraryId).split('/').pop() ?? job.libraryId;
    return {
      revision: sha,
      ref: params.ref ?? defaultBranch,
      tags: commitTags.filter(isAddressableVersion),
      documents,
      files: commitFiles(commit, files, deps.config.maxDocFileBytes),
      config,
      fileUrl: (p, line) =>
        fileUrl(
          params.host === 'git' ? 'git' : params.host,
          params.linkBase ?? params.webUrl,
          params.linkRefs?.find((l) => l.version === job.version)?.ref ?? sha,
          p,
          line,
        ),
      meta: (described) => ({
        title: config?.projectTitle ?? described.title ?? repoName,
        description: config?.description ?? described.description ?? '',
        branch: defaultBranch,
      }),
      emptyMessage: 'No documentation was found in the repository (no Markdown, reStructuredText, notebooks, AsciiDoc or text files with content).',
      async supplement(_ctx, codeSnippets) {
        if (!params.generateDocs && codeSnippets >= MIN_CODE_SNIPPETS) return { snippets: [], files: [] };
        const generated = await generateFromSource(commit, files, deps.config.maxDocFileBytes);
        if (generated.snippets.length > 0) {
          ctx.log(
            'info',
            `generated ${generated.snippets.length} snippets from ${generated.files.length} source files${params.generateDocs ? '' : ' (the docs had few code examples)'}`,
          );
        }
        return { snippets: generated.snippets, files: generated.files.map((f) => ({ path: f.path, hash: f.oid })) };
      },
      async after(afterCtx) {
        await keepCodeOfBuild(codePorts(afterCtx, deps), job.libraryId, sha, files, (p) => readBlob(commit, p));
        await afterBuild(afterCtx, deps, params, config, tags);
      },
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

/**
 * A refresh whose ref still points at the commit the served generation was built from needs
 * no clone: the remote's refs are listed (`listRemote`, no objects fetched) and compared. On
 * no change the served generation stays, and for latest the version rule is applied to the
 * remote's tags (the repo config's previousVersions, never retired, as the last build kept
 * them with the manifest). Returns false when a build is needed, also
 * when the listing fails (the clone then reports why).
 */
async function unchangedWithoutClone(ctx: JobContext, deps: IndexingDeps, params: GitJobParams): Promise<boolean> {
  const { job } = ctx;
  const token = job.encryptedToken ? deps.decryptToken(job.encryptedToken) : undefined;
  const transport = gitTransport(deps.config, params.host);
  const library = await deps.libraries.get(job.libraryId, { fresh: true });
  const previous = library?.versions.find((v) => v.version === job.version && v.generation > 0);
  if (!previous?.commit) return false;
  const manifest = await deps.manifests.get(job.libraryId, job.version);
  if (!manifest || manifest.generation !== previous.generation || manifest.files.length === 0) return false;
  // A version served without its kept code (built before code was kept) is cloned once to keep it.
  if (deps.config.code.treeMaxBytes > 0 && !hasKeptTree(deps.config.code.dir, job.libraryId, previous.commit)) return false;
  const started = Date.now();
  const refs = await listRemote(params.cloneUrl, token, transport).catch((error: unknown) => {
    ctx.log('info', `listing the remote's refs failed (${(error as Error).message}); cloning instead`);
    return undefined;
  });
  if (!refs) return false;
  const target = params.ref === undefined ? refs.head : (refs.tags.get(params.ref) ?? refs.branches.get(params.ref));
  if (target !== previous.commit) return false;
  const tags = [...refs.tags.keys()].sort().reverse();
  if (job.version === 'latest' && params.ref === undefined) await recordSourceState(deps, job.libraryId, refs.head ?? null, tags);
  ctx.log('info', `listed the remote's refs in ${Date.now() - started} ms without cloning; ${tags.length} tags`);
  ctx.log('info', `no change since the build of commit ${previous.commit.slice(0, 12)}: nothing written`);
  await ctx.progress({
    filesAdded: 0,
    filesChanged: 0,
    filesRemoved: 0,
    filesReused: manifest.files.length,
    snippets: previous.totalSnippets,
    snippetsIndexed: 0,
  });
  if (job.version === 'latest') {
    const keep = manifest.previousVersions;
    await applyVersionRule(ctx, deps, tags, keep ?? [], { retire: keep !== undefined });
  }
  return true;
}

/**
 * What a look at the source found (its head and newest release), kept on the library so
 * answers can say whether the served version is behind its source. Best effort: a failure
 * to record it never fails the job.
 */
async function recordSourceState(deps: IndexingDeps, libraryId: string, head: string | null, tags: readonly string[]): Promise<void> {
  const sourceState = { checkedAt: new Date(), head, newestTag: newestRelease(tags.filter(isAddressableVersion)) };
  await deps.libraries
    .modify(libraryId, () => ({ sourceState }))
    .catch((error: unknown) => deps.log.warn({ err: error, libraryId }, 'recording the source state failed'));
}

/** Where the build keeps the version's code for the code tools (src/code/). */
function codePorts(ctx: JobContext, deps: IndexingDeps) {
  return {
    codeDir: deps.config.code.dir,
    limits: deps.config.code,
    servedCommits: async () =>
      ((await deps.libraries.get(ctx.job.libraryId, { fresh: true }))?.versions ?? []).filter((v) => v.generation > 0 && v.commit).map((v) => v.commit),
    log: (level: 'info' | 'warn', message: string) => ctx.log(level, message),
  };
}

/** After a check of latest: the versions the repo config lists and the library's version rule asks for. */
async function afterBuild(ctx: JobContext, deps: IndexingDeps, params: GitJobParams, config: RepoConfig | undefined, tags: string[]): Promise<void> {
  const { job } = ctx;
  if (params.followPreviousVersions && job.version === 'latest' && config?.previousVersions?.length) {
    const wanted = config.previousVersions.map((v) => v.tag);
    for (const tag of wanted.filter((t) => !isAddressableVersion(t))) {
      ctx.log('warn', `previousVersions: "${tag}" is not a version name a client can address (letters, digits, ".", "_", "+", "-"; not "latest"); skipped`);
    }
    await deps.enqueueVersions(job, wanted.filter(isAddressableVersion), tags);
  }
  if (job.version !== 'latest') return;
  const keep = config?.previousVersions?.map((v) => v.tag) ?? [];
  // Kept with the manifest for the checks that need no clone (unchangedWithoutClone).
  await deps.manifests.setPreviousVersions(job.libraryId, keep);
  await applyVersionRule(ctx, deps, tags, keep);
}

async function readRepoConfig(commit: Awaited<ReturnType<typeof resolveCommit>>, files: RepoFile[], ctx: JobContext): Promise<RepoConfig | undefined> {
  for (const name of ['shelfmark.json', 'context7.json']) {
    const f = files.find((x) => x.path === name && !x.isSymlink);
    if (!f) continue;
    const text = decodeUtf8(await readBlob(commit, name));
    if (text === undefined) throw new JobFailure('validation_error', `${name} is not UTF-8 text.`);
    const { config, warnings } = (() => {
      try {
        return parseRepoConfig(text, name);
      } catch (error) {
        throw new JobFailure('validation_error', `${name} is invalid: ${(error as Error).message}`);
      }
    })();
    for (const w of warnings) ctx.log('warn', `${name}: ${w}`);
    ctx.log('info', `using ${name}`);
    return config;
  }
  return undefined;
}

function logSkipped(ctx: JobContext, skipped: { path: string; reason: string }[]): void {
  const noisy = skipped.filter((s) => s.reason !== 'not documentation' && s.reason !== 'extension');
  for (const s of noisy.slice(0, 30)) ctx.log('info', `skipped ${s.path}: ${s.reason}`);
  if (noisy.length > 30) ctx.log('info', `... and ${noisy.length - 30} more files skipped`);
}

async function generateFromSource(
  commit: Awaited<ReturnType<typeof resolveCommit>>,
  files: RepoFile[],
  maxBytes: number,
): Promise<{ snippets: ParsedSnippet[]; files: RepoFile[] }> {
  const byPath = new Map(files.filter((f) => !f.isSymlink && f.size <= maxBytes).map((f) => [f.path, f]));
  const chosen = selectSourceFiles([...byPath.keys()]);
  const inputs: { path: string; text: string }[] = [];
  const used: RepoFile[] = [];
  for (const p of chosen) {
    const f = byPath.get(p);
    if (!f) continue;
    const buf = await readBlob(commit, p);
    const text = looksBinary(buf) ? undefined : decodeUtf8(buf);
    if (text === undefined) continue;
    inputs.push({ path: p, text });
    used.push(f);
  }
  return { snippets: await generateDocsSnippets(inputs), files: used };
}

/**
 * A repository that cannot be cloned is the request's fault (400 validation_error): the
 * same code and wording whether it is missing or unreachable, naming docsRepoUrl when the
 * URL came from the caller.
 */
function toJobFailure(error: unknown, fromRequest: boolean): Error {
  if (!(error instanceof GitSourceError)) return error as Error;
  switch (error.reason) {
    case 'auth':
      return new JobFailure('validation_error', `${error.message} (gitToken)`);
    case 'unavailable':
    case 'tls':
    case 'redirect':
      return new JobFailure('validation_error', fromRequest ? `docsRepoUrl: ${error.message}` : error.message);
    default:
      return error;
  }
}
