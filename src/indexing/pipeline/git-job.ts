/**
 * Builds one version of a library from a Git repository: clone → find the docs → parse
 * (reusing snippets of unchanged files from the previous generation) → index → publish.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JobContext } from '../jobs/worker';
import type { ParsedSnippet, SnippetDocument } from '../types';
import { cloneBare, GitSourceError, listTags, listTree, readBlob, resolveCommit, tagsAt, type CloneOptions, type RepoFile } from '../sources/git';
import { JobFailure } from '../jobs/failure';
import { parseRepoConfig, type RepoConfig } from '../discover/config';
import { selectDocFiles } from '../discover/select';
import { decodeUtf8, looksBinary } from '../discover/binary';
import { describeFromReadme } from '../discover/readme';
import { judgeLanguage, proseOf } from '../discover/language';
import { parseDocument } from '../parsers';
import { dependentHash, describeProblems, expandIncludes, includeSettings, type IncludeProblem } from '../includes';
import { commitFiles } from './commit-files';
import { readPages } from './pages';
import { finishSnippets } from '../snippets/finish';
import { generateDocsSnippets, selectSourceFiles } from '../codedocs';
import { fileUrl, isAddressableVersion, type GitHost } from '../../libraries/ids';
import { clientLibraryId } from '../../store/libraries';
import { gitTransport } from './git-transport';
import { newGeneration, publishGeneration, type PublishDeps } from './publish';
import type { IndexingDeps } from './deps';
import { applyVersionRule } from './version-discovery';

export interface GitJobParams {
  host: GitHost;
  cloneUrl: string;
  webUrl: string;
  /** Tag or branch to build; undefined = the default branch ("latest"). */
  ref?: string;
  skipVersionFiltering: boolean;
  generateDocs: boolean;
  /** Index `previousVersions` of the repo config after building latest. */
  followPreviousVersions: boolean;
  /**
   * Source links: by default `<webUrl>/blob/<commit>/<path>`. A mirror (the corpus loader's
   * local repositories) can link to its upstream instead: `linkBase` with the upstream ref
   * of each version in `linkRefs` (falling back to the commit).
   */
  linkBase?: string;
  /** Upstream ref per version (a list: MongoDB keys cannot contain dots, FerretDB has no nested arrays). */
  linkRefs?: { version: string; ref: string }[];
  /** The add request as made (an add-repo job; not read by the worker): the dashboard's "try again". */
  addRequest?: AddRequestEcho;
}

/**
 * What a failed add needs to be made again, without its secret: a token typed for it is not
 * kept (tokenGiven says one must be typed again), and credentials in the URL are dropped.
 */
export interface AddRequestEcho {
  host: GitHost;
  docsRepoUrl: string;
  private: boolean;
  skipVersionFiltering: boolean;
  generateDocs: boolean;
  tokenGiven: boolean;
}

/** Fewer code snippets than this from the docs: fall back to documenting the source. */
const MIN_CODE_SNIPPETS = 5;

export async function runGitJob(ctx: JobContext, deps: IndexingDeps): Promise<void> {
  const job = ctx.job;
  const params = job.params as unknown as GitJobParams;
  const token = job.encryptedToken ? deps.decryptToken(job.encryptedToken) : undefined;
  const dir = path.join(deps.config.dataDir, 'clones', job._id);
  fs.rmSync(dir, { recursive: true, force: true });
  try {
    await ctx.setState('cloning');
    const started = Date.now();
    const transport: CloneOptions = gitTransport(deps.config, params.host);
    const { repo, defaultBranch } = await cloneBare(params.cloneUrl, dir, token, transport).catch((error: unknown) => {
      throw toJobFailure(error, job.kind === 'add-repo');
    });
    const commit = await resolveCommit(repo, params.ref ?? 'HEAD').catch(async (error: unknown) => {
      if (error instanceof GitSourceError && error.reason === 'ref_not_found') {
        const available = await listTags(repo);
        const versions = available.filter(isAddressableVersion);
        throw new JobFailure('tag_not_found', `Version "${params.ref}" of ${clientLibraryId(job.libraryId)} does not exist. Available versions: ${versions.join(', ') || 'none'}.`, {
          libraryId: clientLibraryId(job.libraryId),
          availableVersions: versions,
        });
      }
      throw error;
    });
    const tags = await listTags(repo);
    // Tags that also address this version: only names a client can address (git allows
    // `release/1.0` and more; such a tag would be stored but never reachable).
    const commitTags = await tagsAt(repo, commit.sha(), tags);
    const sameCommitTags = commitTags.filter(isAddressableVersion);
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
    const selectedFiles = selected.map((p) => byPath.get(p)).filter((f): f is RepoFile => f !== undefined);
    await ctx.progress({ filesTotal: selectedFiles.length, filesSkipped: skipped.length });

    // Reuse the previous generation's snippets for files whose content is unchanged.
    const library = await deps.libraries.get(job.libraryId, { fresh: true });
    const previous = library?.versions.find((v) => v.version === job.version);
    const manifest = previous ? await deps.Manifest.findById(`${job.libraryId}@${job.version}`).lean() : null;
    const previousHashes = new Map((manifest && manifest.generation === previous?.generation ? manifest.files : []).map((f) => [f.p, f.h]));
    const unchanged = selectedFiles.filter((f) => previousHashes.get(f.path) === f.oid).map((f) => f.path);
    const change = fileChanges(previousHashes, selectedFiles);
    await ctx.progress({ filesAdded: change.added, filesChanged: change.changed, filesRemoved: change.removed });
    ctx.log('info', `since the previous build: ${change.added} files added, ${change.changed} changed, ${change.removed} removed, ${unchanged.length} unchanged`);
    // A refresh of the very commit the served generation was built from, with the same doc
    // files, has nothing to write: the served generation stays (an add always rebuilds, so
    // changed options take effect).
    if (job.kind === 'refresh' && previous && previous.generation > 0 && previous.commit === commit.sha() && previousHashes.size > 0 && change.added + change.changed + change.removed === 0) {
      ctx.log('info', `no change since the build of commit ${commit.sha().slice(0, 12)}: nothing written`);
      await ctx.progress({ filesReused: unchanged.length, snippets: previous.totalSnippets, snippetsIndexed: 0 });
      await afterBuild(ctx, deps, params, config, tags);
      return;
    }
    let reused: SnippetDocument[] = previous && unchanged.length > 0 ? await deps.store.read({ libraryId: job.libraryId, version: job.version, generation: previous.generation, paths: unchanged }) : [];
    const unchangedSet = new Set(unchanged);

    const parsed: ParsedSnippet[] = [];
    const fileHashes = new Map<string, string>();
    const commitTexts = commitFiles(commit, files, deps.config.maxDocFileBytes);
    const includes = await includeSettings(commitTexts);
    const includeProblems: IncludeProblem[] = [];
    let includedCount = 0;
    /** Pages whose prose is not English although their names do not say so (decided after the loop). */
    const foreign: { path: string; language: string; snippets: ParsedSnippet[] }[] = [];
    let readme: string | undefined;
    let parsedCount = 0;
    const { pages, excluded } = await readPages(ctx, selectedFiles, commitTexts, config);
    if (excluded.size > 0) reused = reused.filter((s) => !excluded.has(s.path));
    // The description comes from the README even when its page is left out as a copy.
    const readmeFile = selectedFiles.find((f) => /^readme\.(md|mdx|markdown|rst|txt)$/i.test(f.path));
    if (readmeFile) readme = await commitTexts.read(readmeFile.path);
    for (const { file, text } of pages) {
      fileHashes.set(file.path, file.oid);
      if (unchangedSet.has(file.path)) continue;
      const expanded = await expandIncludes({ path: file.path, text }, commitTexts, includes);
      includeProblems.push(...expanded.problems);
      if (expanded.included.length > 0) {
        includedCount += expanded.included.length;
        fileHashes.set(file.path, dependentHash(file.oid, expanded.included, commitTexts));
      }
      const snippets = parseDocument({ path: file.path, text: expanded.text });
      const verdict = judgeLanguage(proseOf(text));
      if (verdict.english) parsed.push(...snippets);
      else foreign.push({ path: file.path, language: verdict.language ?? 'unknown', snippets });
      parsedCount++;
      if (parsedCount % 50 === 0) {
        await ctx.progress({ filesParsed: parsedCount, filesReused: unchanged.length });
        await ctx.checkpoint();
      }
    }
    keepEnglishPages(ctx, foreign, parsed, fileHashes, parsedCount);
    ctx.log('info', `parsed ${parsedCount} files, reused ${unchanged.length} unchanged files (${reused.length} snippets)`);
    if (includedCount > 0 || includeProblems.length > 0) ctx.log('info', `resolved ${includedCount} includes; ${includeProblems.length} left as written`);
    for (const line of describeProblems(includeProblems)) ctx.log('warn', line);
    await ctx.progress({ filesParsed: parsedCount, filesReused: unchanged.length });

    const codeCount = parsed.filter((s) => s.kind === 'code').length + reused.filter((s) => s.kind === 'code').length;
    if (params.generateDocs || codeCount < MIN_CODE_SNIPPETS) {
      const generated = await generateFromSource(commit, files, deps.config.maxDocFileBytes);
      if (generated.snippets.length > 0) {
        ctx.log('info', `generated ${generated.snippets.length} snippets from ${generated.files.length} source files${params.generateDocs ? '' : ' (the docs had few code examples)'}`);
        parsed.push(...generated.snippets);
        for (const f of generated.files) fileHashes.set(f.path, f.oid);
      }
    }

    const sha = commit.sha();
    const generation = newGeneration();
    const fresh = finishSnippets(parsed, {
      libraryId: job.libraryId,
      version: job.version,
      fileUrl: (p, line) => fileUrl(params.host === 'git' ? 'git' : params.host, params.linkBase ?? params.webUrl, params.linkRefs?.find((l) => l.version === job.version)?.ref ?? sha, p, line),
      fileHashes,
    });
    let all = [...reused, ...fresh].map((s) => ({ ...s, generation }));
    if (all.length === 0) throw new JobFailure('no_snippets_found', 'No documentation was found in the repository (no Markdown, reStructuredText, notebooks, AsciiDoc or text files with content).');
    await ctx.progress({ snippets: all.length });
    await ctx.checkpoint();

    await ctx.setState('indexing');
    if (deps.embeddings) {
      // Before the commit, so a cancel still stops a long embedding run; cached vectors
      // (unchanged texts of this or any earlier build) cost a lookup, not a model run.
      const started = Date.now();
      let embedded = 0;
      all = await deps.embeddings.attach(all, async (p) => {
        embedded = p.embedded;
        await ctx.progress({ snippetsEmbedded: p.cached + p.embedded });
        await ctx.checkpoint();
      });
      ctx.log('info', `vectors for ${all.length} snippets: ${all.length - embedded} from the cache, ${embedded} embedded in ${Date.now() - started} ms`);
    }
    // From here the build becomes visible: a cancel that comes later is refused.
    await ctx.commit();
    const described = readme ? describeFromReadme(readme) : {};
    const repoName = clientLibraryId(job.libraryId).split('/').pop() ?? job.libraryId;
    const publishDeps: PublishDeps = deps;
    const totals = await publishGeneration(
      publishDeps,
      {
        libraryId: job.libraryId,
        version: job.version,
        ref: params.ref ?? defaultBranch,
        tags: sameCommitTags,
        commit: sha,
        generation,
        snippets: all,
        files: [...fileHashes].map(([p, h]) => ({ p, h })),
        meta:
          job.version === 'latest'
            ? { title: config?.projectTitle ?? described.title ?? repoName, description: config?.description ?? described.description ?? '', branch: defaultBranch }
            : {},
      },
      // snippets stays the total, so the indexing stage has a bar of its own
      (written) => void ctx.progress({ snippetsIndexed: written }),
    );
    ctx.log('info', `indexed ${totals.totalSnippets} snippets (${totals.totalTokens} tokens), benchmark score ${totals.benchmarkScore}`);

    await afterBuild(ctx, deps, params, config, tags);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
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
  if (job.version === 'latest') await applyVersionRule(ctx, deps, tags, config?.previousVersions?.map((v) => v.tag) ?? []);
}

/** Doc files added, changed and removed against the previous build's manifest (path → blob id). */
export function fileChanges(previous: ReadonlyMap<string, string>, current: readonly { path: string; oid: string }[]): { added: number; changed: number; removed: number } {
  let added = 0;
  let changed = 0;
  for (const f of current) {
    const before = previous.get(f.path);
    if (before === undefined) added++;
    else if (before !== f.oid) changed++;
  }
  const now = new Set(current.map((f) => f.path));
  const removed = [...previous.keys()].filter((p) => !now.has(p)).length;
  return { added, changed, removed };
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

/**
 * Pages found not to be English by their content are left out, the English pages kept,
 * unless they are most of the docs: then the library is written in that language and
 * everything is kept. A page left out is re-judged on the next build (no manifest entry).
 */
function keepEnglishPages(ctx: JobContext, foreign: { path: string; language: string; snippets: ParsedSnippet[] }[], parsed: ParsedSnippet[], fileHashes: Map<string, string>, parsedCount: number): void {
  if (foreign.length === 0) return;
  if (foreign.length * 2 > parsedCount) {
    ctx.log('info', `${foreign.length} of ${parsedCount} pages are not in English: kept, the docs are written in their language`);
    for (const f of foreign) parsed.push(...f.snippets);
    return;
  }
  for (const f of foreign.slice(0, 30)) ctx.log('info', `skipped ${f.path}: not English (${f.language}) by its content`);
  if (foreign.length > 30) ctx.log('info', `... and ${foreign.length - 30} more pages not in English`);
  for (const f of foreign) fileHashes.delete(f.path);
}

function logSkipped(ctx: JobContext, skipped: { path: string; reason: string }[]): void {
  const noisy = skipped.filter((s) => s.reason !== 'not documentation' && s.reason !== 'extension');
  for (const s of noisy.slice(0, 30)) ctx.log('info', `skipped ${s.path}: ${s.reason}`);
  if (noisy.length > 30) ctx.log('info', `... and ${noisy.length - 30} more files skipped`);
}

async function generateFromSource(commit: Awaited<ReturnType<typeof resolveCommit>>, files: RepoFile[], maxBytes: number): Promise<{ snippets: ParsedSnippet[]; files: RepoFile[] }> {
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
