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
import { PAGE_KINDS, type SnippetDocument } from '../../search/types';
import { isAddressableVersion } from '../../domain/library-ids';

export const BUNDLE_FORMAT = 'shelfmark-bundle';
export const BUNDLE_FORMAT_VERSION = 1;
/** The longest line a reader accepts (a snippet with an embedding is a few KB; a large manifest a few MB). */
export const MAX_BUNDLE_LINE_BYTES = 64 * 1024 * 1024;
/** How much larger than its compressed size a bundle may grow when decompressed (a gzip bomb stops here). */
export const MAX_EXPANSION = 40;

/** The most snippets' bytes one line may hold (real ones, with a vector, are a few KB). */
export const MAX_SNIPPET_LINE_BYTES = 256 * 1024;

/** A count or generation: a whole number JavaScript and Elasticsearch's long both hold exactly. */
const count = () => z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const VERSION_RULE = 'letters, digits, ".", "_", "+", "-" (at most 100; the default branch is "latest")';

const versionSchema = z.object({
  version: z.string().refine((v) => v === 'latest' || isAddressableVersion(v), `must be ${VERSION_RULE}`),
  ref: z.string().max(300),
  tags: z.array(z.string().refine(isAddressableVersion, `must be ${VERSION_RULE}`)).max(1000),
  commit: z.string().max(100),
  generation: count().positive(),
  totalSnippets: count(),
  totalTokens: count(),
  benchmarkScore: z.number().min(0).max(100),
  lastUpdateDate: z
    .string()
    .max(100)
    .refine((d) => !Number.isNaN(Date.parse(d)), 'must be a date (ISO 8601)'),
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
  // One manifest document per version (MongoDB holds 16 MB a document).
  files: z.array(z.object({ p: z.string().max(1000), h: z.string().max(200) })).max(50_000),
});

/** A keyword field: Elasticsearch refuses a term over 32,766 bytes (a UTF-8 character is at most 4). */
const keyword = (max = 4000) => z.string().max(max);
const text = () => z.string().max(MAX_SNIPPET_LINE_BYTES);
const int32 = () =>
  z
    .number()
    .int()
    .nonnegative()
    .max(2 ** 31 - 1);

/**
 * Every field of a stored snippet as the index maps it (search/mappings.ts): a field the
 * document type gains without a rule here does not compile, so a bundle cannot put a value
 * the index refuses (which was a 500 and left the import's other documents behind).
 */
const SNIPPET_DOCUMENT_FIELDS = {
  id: keyword(200).min(1),
  libraryId: keyword(400),
  version: keyword(100),
  generation: count(),
  retired: count().nullable().optional(),
  kind: z.enum(['code', 'info']),
  title: text(),
  breadcrumb: z.array(text()).max(100),
  pageTitle: text(),
  description: text(),
  content: text(),
  language: keyword(100),
  code: text(),
  path: keyword(2000),
  startLine: int32(),
  url: keyword(8000),
  tokens: int32(),
  fileHash: keyword(200),
  // Mapping version 5: what the page is, the version a changelog or guide is about, the part of a long section.
  pageKind: z.enum(PAGE_KINDS).optional(),
  pageVersion: keyword(100).optional(),
  part: z.number().int().min(0).max(32767).optional(),
  searchTitle: text(),
  searchBreadcrumb: text(),
  searchBody: text(),
  searchCode: text(),
  searchPath: text(),
  searchIdentifiers: text(),
  // Kept only when of this installation's model and size (import.ts); any finite numbers here.
  embedding: z.array(z.number()).max(4096).optional(),
} satisfies Record<keyof SnippetDocument, z.ZodTypeAny>;

/**
 * A snippet line. `strict`: a bundle of this server's mapping version has no other fields;
 * one of another version may (a newer server's), which are left out.
 */
export function snippetLineSchema(strict: boolean) {
  const doc = z.object(SNIPPET_DOCUMENT_FIELDS);
  return z.object({ type: z.literal('snippet'), doc: strict ? doc.strict() : doc.strip() });
}

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
