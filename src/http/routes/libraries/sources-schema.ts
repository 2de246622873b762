/**
 * The contract of the non-Git add routes (website, llms.txt, archive), in the validate()
 * style (http/validate.ts): the bodies are the use cases' zod schemas, so what is checked
 * at the edge is what the use case accepts.
 */
import { z } from 'zod';
import type { RouteSchema } from '../../validate';
import { addLlmsTxtBody, addWebsiteBody } from '../../../catalog/add-web';
import { HEADER_NAMES } from '../shared-schema';
import { MAX_ARCHIVE_BYTES } from '../../../catalog/add-archive';
import type { MultipartOptions } from '../../middlewares/multipart';

const tag = 'Add Library';

export const sourceSchemas = {
  'add.website': {
    summary: 'Crawl a website (scope page|subpages|hostname, maxPages, maxDepth, include/exclude globs, headers kept encrypted)',
    tag,
    body: addWebsiteBody.extend({ headers: addWebsiteBody.shape.headers.openapi(HEADER_NAMES) }),
    errors: ['timeout', 'no_snippets_found', 'conflict'],
  },
  'add.llmstxt': {
    summary: 'Index an llms.txt (its pages) or llms-full.txt (split like Markdown)',
    tag,
    body: addLlmsTxtBody,
    errors: ['timeout', 'no_snippets_found', 'conflict'],
  },
  'add.archive': {
    summary:
      "Upload built docs: a zip or tar.gz of a static site or Markdown folder (at most 50 MB; links, paths leaving the archive, device files and decompression bombs refused); private to the caller's team unless public=true (admins)",
    tag,
    multipart: z.object({
      archiveFile: z.string().openapi({ format: 'binary' }),
      libraryTitle: z.string().max(200).optional(),
      description: z.string().max(2000).optional(),
      force: z.enum(['true', 'false']).optional().openapi({ description: 'Replace the archive library of the same id in the same scope' }),
      public: z.enum(['true', 'false']).optional().openapi({ description: 'Publish to every caller (admins only)' }),
    }),
    errors: ['duplicate_repo', 'access_denied', 'forbidden', 'timeout', 'payload_too_large', 'no_snippets_found'],
  },
} satisfies Record<string, RouteSchema>;

/** `POST /add/archive`: one file, limited while it streams in (multer), and a few text fields. */
export const ARCHIVE_UPLOAD_FORM: MultipartOptions = {
  fileField: 'archiveFile',
  maxFileBytes: MAX_ARCHIVE_BYTES,
  maxFields: 10,
  maxFieldBytes: 64 * 1024,
  maxParts: 12,
};
