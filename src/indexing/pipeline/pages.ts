/**
 * The pages of a build before parsing: every selected file read once (binary and non-UTF-8
 * files skipped), then the ones that are not content by what they hold left out — redirect
 * stubs, and near-duplicate copies of pages in other folders (one copy kept). Every page is
 * read, unchanged ones too, because whether a page is a copy depends on the others.
 */
import type { JobContext } from '../jobs/worker';
import type { ListedDocument } from '../sources/source';
import type { CommitFiles } from './commit-files';
import { redirectStubReason } from '../discover/stubs';
import { nearDuplicatePages } from '../discover/duplicate-trees';
import type { RepoConfig } from '../discover/config';

export interface Page {
  file: ListedDocument;
  text: string;
}

export interface ReadPages {
  pages: Page[];
  /** Paths left out by content (their snippets must not be reused either). */
  excluded: Set<string>;
}

/** `config`: the repository's switches (`defaultExclusions.redirectStubs`, `duplicatePages`). */
export async function readPages(ctx: JobContext, selected: readonly ListedDocument[], files: CommitFiles, config: RepoConfig = {}): Promise<ReadPages> {
  const pages: Page[] = [];
  const excluded = new Set<string>();
  const notes: string[] = [];
  for (const [i, file] of selected.entries()) {
    // Reused without its text (a page that answered 304): it cannot be judged a copy.
    if (file.reuseOnly) continue;
    const text = await files.read(file.path);
    if (text === undefined) {
      ctx.log('warn', `skipped ${file.path}: binary or not UTF-8`);
      excluded.add(file.path);
      continue;
    }
    const stub = config.defaultExclusions?.redirectStubs === false ? undefined : redirectStubReason(text);
    if (stub) {
      notes.push(`skipped ${file.path}: ${stub}`);
      excluded.add(file.path);
      continue;
    }
    pages.push({ file, text });
    if (i % 200 === 199) await ctx.checkpoint();
  }
  const copies =
    config.duplicatePages?.enabled === false
      ? new Map<string, string>()
      : nearDuplicatePages(
          pages.map((p) => ({ path: p.file.path, text: p.text })),
          files.paths(),
          config.duplicatePages?.threshold,
        );
  for (const [copy, kept] of copies) {
    notes.push(`skipped ${copy}: a copy of ${kept}`);
    excluded.add(copy);
  }
  for (const line of notes.slice(0, 30)) ctx.log('info', line);
  if (notes.length > 30) ctx.log('info', `... and ${notes.length - 30} more pages left out by their content`);
  return { pages: pages.filter((p) => !copies.has(p.file.path)), excluded };
}
