/**
 * The website and llms.txt sources: a crawl (sources/website/, SSRF-safe fetcher) becomes a
 * snapshot. Pages fetched are documents with their text; pages the crawl found unchanged
 * (304, or the same hash) are `reuseOnly` documents — their previous snippets are kept and
 * they are not parsed again. The previous build's pages (URL, path, hash, ETag,
 * Last-Modified) are kept in its manifest (`pages`), written after publishing, and given to
 * the next crawl for conditional requests.
 *
 * What was skipped, and why, becomes the crawl report: on the job while it runs, on the
 * library once the build is published. A crawl that found no page at all fails the job with
 * the start URL's reason (a 400 for the add: a blocked address, a 404, robots.txt ...).
 */
import type { JobContext } from '../jobs/worker';
import { JobFailure } from '../jobs/failure';
import type { IndexingDeps } from '../pipeline/deps';
import type { LlmsTxtJobParams, WebsiteJobParams } from '../../domain/job-params';
import type { CrawlReport } from '../../store/models/job';
import type { ManifestPage } from '../../store/models/manifest';
import type { CommitFiles } from '../pipeline/commit-files';
import type { DocumentSource, ListedDocument, SourceSnapshot } from './source';
import { crawl, createSiteFetcher, politeness, readLlmsTxt, skippedTotal, type CrawlDeps, type CrawlResult, type PreviousPage } from './website';
import { clientLibraryId } from '../../domain/library-keys';
import { sha256 } from '../../util/hash';
import { AppError } from '../../errors';

/** Skipped URLs kept in a report (the counts cover all). */
export const MAX_REPORTED_SKIPS = 200;
/** Pages an llms.txt index is followed to, at most. */
const LLMS_TXT_MAX_PAGES = 2000;
/** Progress is written at most this often while crawling. */
const PROGRESS_EVERY_MS = 500;

export function webSource(params: WebsiteJobParams | LlmsTxtJobParams, deps: IndexingDeps): DocumentSource {
  return { open: (ctx) => openWeb(ctx, params, deps) };
}

async function openWeb(ctx: JobContext, params: WebsiteJobParams | LlmsTxtJobParams, deps: IndexingDeps): Promise<SourceSnapshot> {
  const { job } = ctx;
  // The fetch stage shows as "cloning" (the stage that gets a version's files).
  await ctx.setState('cloning');
  const headers = job.encryptedHeaders ? readHeaders(deps.decryptToken(job.encryptedHeaders)) : undefined;
  // A refresh asks conditionally and keeps unchanged pages' snippets; an add (a first add,
  // an add again, new source settings) builds every page, so it fetches every page.
  const previous = job.kind === 'refresh' ? await previousPages(deps, job.libraryId, job.version) : [];
  const fetcher = createSiteFetcher(deps.config.web);
  const abort = new AbortController();
  // A cancel (or a lost lease) stops the crawl wherever it is — seeding from sitemaps, waiting
  // its politeness pause — not only between two pages.
  const stopCrawl = () => abort.abort(ctx.signal?.reason);
  if (ctx.signal?.aborted) stopCrawl();
  ctx.signal?.addEventListener('abort', stopCrawl, { once: true });
  let lastProgress = 0;
  const crawlDeps: CrawlDeps = {
    fetcher,
    previous,
    signal: abort.signal,
    onProgress: async (p) => {
      if (Date.now() - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = Date.now();
      await ctx.progress({ filesTotal: p.fetched + p.queued, filesParsed: 0, filesSkipped: p.skipped });
      await ctx.checkpoint().catch((error: unknown) => {
        abort.abort();
        throw error;
      });
    },
  };
  const started = Date.now();
  let result: CrawlResult;
  try {
    result =
      params.source === 'website'
        ? await crawl(
            {
              url: params.url,
              scope: params.scope,
              maxPages: params.maxPages,
              maxDepth: params.maxDepth,
              include: params.include,
              exclude: params.exclude,
              headers,
              ...politeness(deps.config.web),
            },
            crawlDeps,
          )
        : await readLlmsTxt(params.url, crawlDeps, { maxPages: LLMS_TXT_MAX_PAGES, headers, ...politeness(deps.config.web) });
  } catch (error) {
    await fetcher.close();
    if (error instanceof AppError && error.code === 'validation_error') throw new JobFailure('validation_error', error.message);
    throw error;
  } finally {
    ctx.signal?.removeEventListener('abort', stopCrawl);
  }
  await fetcher.close();
  await ctx.checkpoint();
  const report = crawlReport(result);
  await ctx.report(report);
  const skipped = skippedTotal(result);
  ctx.log(
    'info',
    `crawled ${params.url} in ${Date.now() - started} ms: ${result.pages.length} pages fetched, ${result.unchanged.length} unchanged, ${skipped} skipped${describeCounts(report)}`,
  );
  for (const s of result.skipped.slice(0, 30)) ctx.log('info', `skipped ${s.url}: ${s.reason}${s.detail ? ` (${s.detail})` : ''}`);
  if (skipped > 30) ctx.log('info', `... and ${skipped - 30} more URLs skipped (the crawl report lists ${MAX_REPORTED_SKIPS})`);
  if (result.counts.time_budget)
    ctx.log('warn', `the crawl used up its time budget (WEB_CRAWL_MAX_MINUTES=${deps.config.web.maxMinutes}); it kept the pages read so far`);
  if (result.counts.max_urls)
    ctx.log(
      'warn',
      `the crawl tracked as many URLs as it may (WEB_CRAWL_MAX_URLS=${deps.config.web.maxUrls}); ${result.counts.max_urls} more were only counted`,
    );
  if (result.pages.length + result.unchanged.length === 0) {
    const first = result.skipped.find((s) => s.url === params.url) ?? result.skipped[0];
    throw new JobFailure(
      'validation_error',
      `url: no page of ${params.url} could be read${first ? ` (${first.url}: ${first.reason}${first.detail ? `, ${first.detail}` : ''})` : ''}.`,
    );
  }

  await ctx.setState('parsing');
  // One document per path (the crawler's paths are unique; a repeat is kept once, first wins).
  const seen = new Set<string>();
  const texts = new Map<string, string>();
  const documents: ListedDocument[] = [];
  const pages: ManifestPage[] = [];
  const urls = new Map<string, string>();
  for (const p of result.pages) {
    if (seen.has(p.path)) continue;
    seen.add(p.path);
    texts.set(p.path, p.text);
    documents.push({ path: p.path, hash: p.hash });
    pages.push({ u: p.url, p: p.path, h: p.hash, e: p.etag ?? null, m: p.lastModified ?? null });
    urls.set(p.path, p.url);
  }
  for (const p of result.unchanged) {
    if (seen.has(p.path)) continue;
    seen.add(p.path);
    documents.push({ path: p.path, hash: p.hash, reuseOnly: true });
    pages.push({ u: p.url, p: p.path, h: p.hash, e: p.etag ?? null, m: p.lastModified ?? null });
    urls.set(p.path, p.url);
  }
  await ctx.progress({ filesTotal: documents.length, filesSkipped: skipped });
  const libraryName = clientLibraryId(job.libraryId);
  const revision = sha256(
    documents
      .map((d) => `${d.path}\n${d.hash}`)
      .sort()
      .join('\n'),
  );
  const host = new URL(params.url).hostname;
  return {
    revision,
    ref: '',
    tags: [],
    documents,
    files: textFiles(texts, documents),
    fileUrl: (p) => urls.get(p) ?? params.url,
    meta: (described) => ({ title: described.title ?? host, description: described.description ?? '', branch: '' }),
    emptyMessage: `No documentation was found on ${params.url}: ${documents.length} pages read, none with text to index.`,
    async after(afterCtx) {
      // The validators of this build, for the next crawl's conditional requests, and the
      // report on the library (both only when this build's generation is served).
      const lib = await deps.libraries.get(job.libraryId, { fresh: true });
      const served = lib?.versions.find((v) => v.version === job.version);
      if (!served || served.commit !== revision) return;
      await deps.manifests.setPages(job.libraryId, job.version, served.generation, pages);
      await deps.libraries.modify(job.libraryId, () => ({ crawl: report }));
      afterCtx.log('info', `${libraryName}: ${pages.length} pages remembered for the next conditional crawl`);
    },
    close: () => undefined,
  };
}

/** The caller's headers (JSON, decrypted); a record that does not parse is ignored. */
function readHeaders(json: string): Record<string, string> | undefined {
  try {
    const parsed: unknown = JSON.parse(json);
    if (!parsed || typeof parsed !== 'object') return undefined;
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return undefined;
  }
}

/** The served build's pages with their validators, or none (first crawl, or a manifest of another generation). */
async function previousPages(deps: IndexingDeps, libraryId: string, version: string): Promise<PreviousPage[]> {
  const lib = await deps.libraries.get(libraryId, { fresh: true });
  const served = lib?.versions.find((v) => v.version === version);
  if (!served || served.generation === 0) return [];
  const manifest = await deps.manifests.get(libraryId, version);
  if (!manifest || manifest.generation !== served.generation) return [];
  return (manifest.pages ?? []).map((p) => ({ url: p.u, path: p.p, hash: p.h, ...(p.e ? { etag: p.e } : {}), ...(p.m ? { lastModified: p.m } : {}) }));
}

/** The crawl's skips as a bounded, FerretDB-friendly report (counts as a list, no URL-derived keys). */
export function crawlReport(result: CrawlResult): CrawlReport {
  const counts = Object.entries(result.counts)
    .filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] > 0)
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  return {
    pagesFetched: result.pages.length,
    pagesUnchanged: result.unchanged.length,
    counts,
    skipped: result.skipped.slice(0, MAX_REPORTED_SKIPS).map((s) => ({ url: s.url.slice(0, 2000), reason: s.reason, detail: s.detail?.slice(0, 500) ?? null })),
    skippedOmitted: Math.max(0, skippedTotal(result) - Math.min(MAX_REPORTED_SKIPS, result.skipped.length)),
  };
}

function describeCounts(report: CrawlReport): string {
  return report.counts.length === 0 ? '' : ` (${report.counts.map((c) => `${c.reason} ${c.count}`).join(', ')})`;
}

/** CommitFiles over the fetched texts; a reuse-only page has no text here. */
function textFiles(texts: Map<string, string>, documents: ListedDocument[]): CommitFiles {
  const hashes = new Map(documents.map((d) => [d.path, d.hash]));
  const list = [...hashes.keys()];
  return {
    has: (p) => texts.has(p),
    oid: (p) => hashes.get(p),
    paths: () => list,
    read: (p) => Promise.resolve(texts.get(p)),
  };
}
