/**
 * The archive source: an uploaded zip or tar.gz of a built static site or a Markdown
 * folder, kept under `<dataDir>/archives/<sha256>.<zip|tgz>` (written by the add/archive use
 * case after the archive passed every check). Its documents are its files: Markdown, rst,
 * notebooks, AsciiDoc and text selected as in a repository (`selectDocFiles`), HTML pages
 * through the HTML parser. A single top folder (`site/…`) is dropped from the paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JobContext } from '../../jobs/worker';
import { JobFailure } from '../../jobs/failure';
import { selectDocFiles } from '../../discover/select';
import { decodeUtf8, looksBinary } from '../../discover/binary';
import type { CommitFiles } from '../../pipeline/commit-files';
import type { IndexingDeps } from '../../pipeline/deps';
import type { ArchiveJobParams } from '../../../domain/job-params';
import type { DocumentSource, ListedDocument, SourceSnapshot } from '../source';
import { clientLibraryId } from '../../../domain/library-keys';
import { sha256 } from '../../../util/hash';
import { ArchiveError, DEFAULT_ARCHIVE_LIMITS, readArchive, type ArchiveFile } from './read';

/** Where an uploaded archive is kept (by content hash, so an upload of the same file is one copy). */
export function archivePath(dataDir: string, params: Pick<ArchiveJobParams, 'sha256' | 'format'>): string {
  return path.join(dataDir, 'archives', `${params.sha256}.${params.format}`);
}

/** HTML pages that are a generator's furniture, not content. */
const HTML_FURNITURE = /(^|\/)(search|genindex|py-modindex|404|_static|_sources|assets|static)(\.html?|\/)/i;

export function archiveSource(params: ArchiveJobParams, deps: IndexingDeps): DocumentSource {
  return { open: (ctx) => openArchive(ctx, params, deps) };
}

async function openArchive(ctx: JobContext, params: ArchiveJobParams, deps: IndexingDeps): Promise<SourceSnapshot> {
  await ctx.setState('parsing');
  const file = archivePath(deps.config.dataDir, params);
  if (!fs.existsSync(file)) throw new JobFailure('validation_error', `The uploaded archive ${params.fileName} is no longer on this server; upload it again.`);
  let entries: ArchiveFile[];
  try {
    entries = await readArchive(fs.readFileSync(file), params.format, { ...DEFAULT_ARCHIVE_LIMITS, maxFileBytes: deps.config.maxDocFileBytes });
  } catch (error) {
    if (error instanceof ArchiveError) throw new JobFailure('validation_error', `archiveFile: ${error.message}`);
    throw error;
  }
  const files = withoutTopFolder(entries);
  const infos = files.map((f) => ({ path: f.path, size: f.size, isSymlink: false }));
  const { selected, skipped } = selectDocFiles(infos, { maxFileBytes: deps.config.maxDocFileBytes });
  const html = files.filter((f) => /\.html?$/i.test(f.path) && !HTML_FURNITURE.test(f.path) && f.data !== undefined).map((f) => f.path);
  const chosen = new Set([...selected, ...html]);
  const byPath = new Map(files.map((f) => [f.path, f]));
  const documents: ListedDocument[] = files.filter((f) => chosen.has(f.path) && f.data).map((f) => ({ path: f.path, hash: sha256(f.data ?? Buffer.alloc(0)) }));
  await ctx.progress({ filesTotal: documents.length, filesSkipped: files.length - documents.length });
  ctx.log(
    'info',
    `archive ${params.fileName}: ${entries.length} files, ${documents.length} documents (${html.length} HTML pages), ${skipped.length - html.length} other files left out`,
  );
  const libraryName = clientLibraryId(ctx.job.libraryId);
  return {
    revision: params.sha256,
    ref: '',
    tags: [],
    documents,
    files: bufferFiles(byPath),
    fileUrl: (p, line) => `archive:${libraryName}/${p.split('/').map(encodeURIComponent).join('/')}#L${line}`,
    meta: (described) => ({ title: described.title ?? libraryName.split('/').pop() ?? libraryName, description: described.description ?? '', branch: '' }),
    emptyMessage: `No documentation was found in the archive ${params.fileName} (no HTML pages, Markdown, reStructuredText, notebooks, AsciiDoc or text files with content).`,
    close: () => undefined,
  };
}

/** The paths without a top folder every file shares (`site/index.html` → `index.html`). */
function withoutTopFolder(files: ArchiveFile[]): ArchiveFile[] {
  const first = files[0]?.path.split('/')[0];
  if (!first || !files.every((f) => f.path.startsWith(`${first}/`))) return files;
  return files.map((f) => ({ ...f, path: f.path.slice(first.length + 1) }));
}

/** CommitFiles over the archive's files (binary and non-UTF-8 files read as missing). */
function bufferFiles(byPath: Map<string, ArchiveFile>): CommitFiles {
  const list = [...byPath.keys()];
  return {
    has: (p) => byPath.has(p),
    oid: (p) => {
      const data = byPath.get(p)?.data;
      return data ? sha256(data) : undefined;
    },
    paths: () => list,
    read: (p) => {
      const data = byPath.get(p)?.data;
      return Promise.resolve(data && !looksBinary(data) ? decodeUtf8(data) : undefined);
    },
  };
}
