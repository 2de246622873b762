/**
 * The contract of the non-Git add routes (website, llms.txt, archive), in the validate()
 * style (http/validate.ts): the bodies are the use cases' zod schemas, so what is checked
 * at the edge is what the use case accepts.
 */
import type { RouteSchema } from '../../validate';
import { addLlmsTxtBody, addWebsiteBody } from '../../../libraries/add-web';
import { MAX_ARCHIVE_BYTES } from '../../../libraries/add-archive';
import type { MultipartOptions } from '../../middlewares/multipart';

const tag = 'Add Library';

export const sourceSchemas = {
  'add.website': {
    summary: 'Crawl a website (scope page|subpages|hostname, maxPages, maxDepth, include/exclude globs, headers kept encrypted)',
    tag,
    body: addWebsiteBody,
    errors: ['timeout', 'no_snippets_found'],
  },
  'add.llmstxt': {
    summary: 'Index an llms.txt (its pages) or llms-full.txt (split like Markdown)',
    tag,
    body: addLlmsTxtBody,
    errors: ['timeout', 'no_snippets_found'],
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
