/**
 * The library bundle format (docs/BUNDLES.md): gzip-compressed NDJSON, one JSON object per
 * line, in this order:
 *
 *   1. the header: `format`, `formatVersion`, the library's metadata and its versions;
 *   2. per version, one `files` line (the build's file manifest) and one `snippet` line per
 *      snippet document, exactly as Elasticsearch stores it (`_source`);
 *   3. the trailer: `{"type":"end","lines":n,"sha256":…}` — the SHA-256 of every
 *      uncompressed byte before it (the lines and their newlines).
 *
 * NDJSON + gzip rather than a tar archive: a bundle is one stream of records that both ends
 * handle a line at a time (bounded memory, no seeking), Node's own zlib compresses it (no
 * archive library to trust with paths on import: nothing in a bundle becomes a file name),
 * and `zcat bundle | head -1` shows what a bundle holds. gzip's CRC catches damage in
 * transit; the trailer's checksum also catches a bundle re-compressed after editing, and its
 * absence a truncated one.
 */
import { z } from 'zod';

export const BUNDLE_FORMAT = 'shelfmark-bundle';
export const BUNDLE_FORMAT_VERSION = 1;
/** The longest line a reader accepts (a snippet with an embedding is a few KB; a large manifest a few MB). */
export const MAX_BUNDLE_LINE_BYTES = 64 * 1024 * 1024;
/** How much larger than its compressed size a bundle may grow when decompressed (a gzip bomb stops here). */
export const MAX_EXPANSION = 40;

const versionSchema = z.object({
  version: z.string().min(1).max(100),
  ref: z.string().max(300),
  tags: z.array(z.string().max(100)).max(1000),
  commit: z.string().max(100),
  generation: z.number().int().positive(),
  totalSnippets: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  benchmarkScore: z.number(),
  lastUpdateDate: z.string(),
});

export const bundleHeaderSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  formatVersion: z.literal(BUNDLE_FORMAT_VERSION),
  createdAt: z.string(),
  /** The snippets index mapping version the documents were written for (search/snippet-store.ts). */
  mappingVersion: z.number().int().positive(),
  /**
   * The embedding model whose vectors the documents carry (absent: none, or unknown). An
   * importer keeps them only when it runs the same model; otherwise it embeds the snippets
   * itself (vectors of two models are not comparable, and may not even have the same size).
   */
  embeddingModel: z.string().max(300).optional(),
  library: z.object({
    id: z.string().min(2).max(300),
    source: z.enum(['github', 'gitlab', 'bitbucket', 'git', 'openapi', 'website', 'llmstxt', 'archive']),
    title: z.string().max(500),
    description: z.string().max(5000),
    repoUrl: z.string().max(2000),
    cloneUrl: z.string().max(2000),
    branch: z.string().max(300),
    aliases: z.array(z.string().max(100)).max(100),
    nameKeys: z.array(z.string().max(300)).max(100),
    trustScore: z.number().min(0).max(10),
    options: z.object({ skipVersionFiltering: z.boolean(), generateDocs: z.boolean() }),
  }),
  versions: z.array(versionSchema).min(1).max(500),
});

export type BundleHeader = z.infer<typeof bundleHeaderSchema>;
export type BundleVersion = z.infer<typeof versionSchema>;

export const filesLineSchema = z.object({
  type: z.literal('files'),
  version: z.string(),
  files: z.array(z.object({ p: z.string(), h: z.string() })),
});

export const snippetLineSchema = z.object({
  type: z.literal('snippet'),
  /** The document as stored; `libraryId`, `version` and `generation` are rewritten on import. */
  doc: z.object({ id: z.string().min(1), version: z.string(), tokens: z.number() }).passthrough(),
});

export const trailerSchema = z.object({
  type: z.literal('end'),
  /** Lines before the trailer (header included). */
  lines: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/** Why a bundle was refused; the import route maps it to 400 `validation_error`. */
export class BundleError extends Error {}

/**
 * The header line, checked in the order that gives the most useful message: a different
 * kind of file, then a format version this server cannot read, then the fields.
 */
export function parseHeader(line: string): BundleHeader {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw new BundleError('This is not a Shelfmark bundle: its first line is not JSON.');
  }
  const shape = raw as { format?: unknown; formatVersion?: unknown };
  if (typeof raw !== 'object' || raw === null || shape.format !== BUNDLE_FORMAT) {
    throw new BundleError(`This is not a Shelfmark bundle (its header does not say format "${BUNDLE_FORMAT}").`);
  }
  if (shape.formatVersion !== BUNDLE_FORMAT_VERSION) {
    throw new BundleError(
      `Bundle format version ${JSON.stringify(shape.formatVersion)} is not supported: this server reads version ${BUNDLE_FORMAT_VERSION}. Export the library again from a server of the same release, or upgrade this one.`,
    );
  }
  const parsed = bundleHeaderSchema.safeParse(raw);
  if (!parsed.success) throw new BundleError(`The bundle header is invalid: ${describeIssues(parsed.error)}.`);
  const names = parsed.data.versions.map((v) => v.version);
  if (new Set(names).size !== names.length) throw new BundleError('The bundle header lists a version twice.');
  return parsed.data;
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || 'line'}: ${i.message}`)
    .join('; ');
}

/** One NDJSON line (with its newline). */
export function encodeLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}
