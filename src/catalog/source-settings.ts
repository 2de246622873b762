/**
 * A library's source settings — what its builds fetch: a website's URL and crawl options
 * (and request headers), an llms.txt's URL, a Git repository's clone URL and options. They
 * change only through `PATCH /v2/libraries/{id}` `sourceOptions` (`libraries.update`:
 * admins for a public copy, the team's owners for its private copy), never as a side effect
 * of an add: an add of a library that exists builds it with its stored settings, and one
 * that asks for other settings is refused (409 `conflict`) naming PATCH. Otherwise any
 * member could shrink a public website to one page, re-point a public llms.txt, or rebuild a
 * public repository with their options, for everyone.
 *
 * A change is a build with the new settings (trigger `settings`), and the settings are stored
 * on the library only once that build has published (indexing/pipeline/handler.ts
 * `rememberSourceSettings`): a build that fails leaves the library as it was.
 */
import type { LibraryRecord } from '../store/models/library';
import type { LlmsTxtJobParams, WebsiteJobParams } from '../domain/job-params';
import { clientLibraryId } from '../store/libraries';
import { ConflictError } from '../errors';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The 409 for an add that asks an existing library for other settings (`changed`: the
 * fields), or nothing when it asks for none.
 */
export function refuseSettingsChange(lib: LibraryRecord, changed: string[]): void {
  if (changed.length === 0) return;
  const id = clientLibraryId(lib._id);
  throw new ConflictError(
    `${id} already exists with other source settings (${changed.join(', ')}). An add builds it with its stored settings; change them with PATCH /v2/libraries${id} (sourceOptions: the team's owners for a team's copy, admins for a public one), or update it with POST /v2/refresh.`,
  );
}

/** Which explicitly given website/llms.txt fields differ from the stored settings. */
export function changedWebSettings(stored: WebsiteJobParams | LlmsTxtJobParams, asked: Partial<WebsiteJobParams> & { headers?: unknown }): string[] {
  const changed: string[] = [];
  if (asked.url !== undefined && asked.url !== stored.url) changed.push('url');
  if (asked.headers !== undefined) changed.push('headers');
  if (stored.source !== 'website') return changed;
  for (const field of ['scope', 'maxPages', 'maxDepth', 'include', 'exclude'] as const) {
    if (asked[field] !== undefined && !same(asked[field], stored[field])) changed.push(field);
  }
  return changed;
}

/** Which explicitly given Git options (and the URL) differ from the stored ones. */
export function changedGitSettings(lib: LibraryRecord, asked: { cloneUrl: string; skipVersionFiltering?: boolean; generateDocs?: boolean }): string[] {
  const changed: string[] = [];
  if (lib.cloneUrl && asked.cloneUrl !== lib.cloneUrl) changed.push('docsRepoUrl');
  if (asked.skipVersionFiltering !== undefined && asked.skipVersionFiltering !== (lib.options?.skipVersionFiltering ?? false))
    changed.push('skipVersionFiltering');
  if (asked.generateDocs !== undefined && asked.generateDocs !== (lib.options?.generateDocs ?? false)) changed.push('generateDocs');
  return changed;
}
