/**
 * The OpenAPI source: one document, the uploaded specification (JSON or YAML), hashed by its
 * bytes. Its snippets come from the OpenAPI reader (indexing/openapi/: one per operation,
 * plus the descriptions), not from the prose parsers, so the snapshot parses its document
 * itself (`SourceSnapshot.parse`); reuse, finishing and publishing are the generic build's.
 *
 * The upload (catalog/upload-openapi.ts) answers synchronously and must refuse a bad
 * document before anything is written, so it parses with {@link readOpenApiSpec} first and
 * builds from {@link openApiSnapshot}; a job (a rebuild from a kept spec) opens the same
 * snapshot through {@link openApiSource}, with a parse error as the job's validation_error.
 */
import type { JobContext } from '../jobs/worker';
import { JobFailure } from '../jobs/failure';
import type { CommitFiles } from '../pipeline/commit-files';
import type { DocumentSource, ListedDocument, SourceSnapshot } from './source';
import { OpenApiError, openApiToSnippets, parseOpenApiDocument, type OpenApiParseResult } from '../openapi';
import { normaliseVersionTag } from '../../domain/library-ids';
import { clientLibraryId } from '../../domain/library-keys';
import { sha256 } from '../../util/hash';

/** The largest specification read (the upload's multipart limit is the same). */
export const MAX_OPENAPI_BYTES = 10 * 1024 * 1024;

/** An uploaded specification and what its library is called. */
export interface OpenApiSpec {
  file: Buffer;
  fileName: string;
  /** A title and description chosen at upload; the document's own otherwise. */
  title?: string;
  description?: string;
}

/** Parses and checks a specification (limits, safety, structure); throws OpenApiError. */
export function readOpenApiSpec(file: Buffer): Promise<OpenApiParseResult> {
  return parseOpenApiDocument(file, { maxBytes: MAX_OPENAPI_BYTES });
}

/**
 * The snapshot of a parsed specification. `libraryName` is the client's id (the links say
 * `openapi:<library>/<file>#L<line>`); the revision is the spec's hash, its info.version
 * (in a form a client can address) the tag.
 */
export function openApiSnapshot(spec: OpenApiSpec, parsed: OpenApiParseResult, libraryName: string): SourceSnapshot {
  const hash = sha256(spec.file);
  const versionTag = parsed.version ? normaliseVersionTag(parsed.version) : undefined;
  const documents: ListedDocument[] = [{ path: spec.fileName, hash }];
  const files: CommitFiles = {
    has: (p) => p === spec.fileName,
    oid: (p) => (p === spec.fileName ? hash : undefined),
    paths: () => [spec.fileName],
    read: (p) => Promise.resolve(p === spec.fileName ? parsed.rawText : undefined),
  };
  return {
    revision: hash.slice(0, 40),
    ref: versionTag ?? '',
    tags: versionTag ? [versionTag] : [],
    documents,
    files,
    parse: (page) => Promise.resolve(page.path === spec.fileName ? openApiToSnippets(parsed, { sourceName: spec.fileName, rawText: parsed.rawText }) : []),
    fileUrl: (p, line) => `openapi:${libraryName}/${encodeURIComponent(p)}#L${line}`,
    meta: () => ({ title: spec.title?.trim() || parsed.title, description: spec.description?.trim() || parsed.description?.slice(0, 300) || '', branch: '' }),
    emptyMessage: 'openapiFile has no operations or descriptions to index.',
    close: () => undefined,
  };
}

/** The source a job builds from: the specification parsed when the job opens it. */
export function openApiSource(spec: OpenApiSpec): DocumentSource {
  return {
    async open(ctx: JobContext) {
      await ctx.setState('parsing');
      let parsed: OpenApiParseResult;
      try {
        parsed = await readOpenApiSpec(spec.file);
      } catch (error) {
        if (error instanceof OpenApiError) throw new JobFailure('validation_error', `openapiFile: ${error.message}`);
        throw error;
      }
      await ctx.progress({ filesTotal: 1 });
      ctx.log('info', `OpenAPI ${parsed.specVersion} document ${spec.fileName}: ${parsed.title} ${parsed.version}`);
      return openApiSnapshot(spec, parsed, clientLibraryId(ctx.job.libraryId));
    },
  };
}
