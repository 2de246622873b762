/**
 * The pages of a build before parsing: every selected file read once (binary and non-UTF-8
 * files skipped), then the ones that are not content by what they hold left out — redirect
 * stubs, and near-duplicate copies of pages in other folders (one copy kept).
 *
 * A full build reads every page, unchanged ones too, because whether a page is a copy
 * depends on the others. A refresh given the previous build's verdicts (page-checks.ts)
 * reads only the pages that changed, when they cannot change the unchanged pages' verdicts;
 * otherwise it too reads and judges every page.
 */
import type { JobContext } from '../jobs/worker';
import type { ListedDocument } from '../sources/source';
import type { CommitFiles } from './commit-files';
import { redirectStubReason } from '../discover/stubs';
import { anyNearDuplicate, duplicateCheck } from '../discover/duplicate-trees';
import type { RepoConfig } from '../discover/config';
import { againstPrevious, checksKey, neighboursToCompare, type ChecksAgainstPrevious, type PageCheck, type PageChecks } from './page-checks';

/** What reading the pages needs of the job: its log and its cancel checkpoints. */
export type PagesContext = Pick<JobContext, 'log' | 'checkpoint'>;

export interface Page {
  file: ListedDocument;
  /** Absent when the page was not read (its verdict was kept): read it through CommitFiles if needed. */
  text?: string;
}

export interface ReadPages {
  pages: Page[];
  /** Paths left out by content (their snippets must not be reused either). */
  excluded: Set<string>;
  /** What was decided about every document, for the manifest. */
  checks: PageChecks;
  /** Pages read (the rest kept their previous verdicts). */
  read: number;
}

/** A page read and not a stub, or the verdict of one that is left out. */
type Judged = { page: Page } | { check: PageCheck; note?: string };

/**
 * `config`: the repository's switches (`defaultExclusions.redirectStubs`, `duplicatePages`).
 * `previous`: the previous build's checks (a refresh), whose verdicts are reused when they hold.
 */
export async function readPages(
  ctx: PagesContext,
  selected: readonly ListedDocument[],
  files: CommitFiles,
  config: RepoConfig = {},
  previous?: PageChecks,
): Promise<ReadPages> {
  const key = checksKey(config, files.paths());
  if (previous?.key === key) {
    const split = againstPrevious(
      selected.filter((d) => !d.reuseOnly),
      previous,
    );
    const changed = await judgeRead(ctx, split.changed, files, config);
    if (await keptVerdictsStand(split, changed, files, config)) return assemble(ctx, selected, changed, split.unchanged, key);
    ctx.log('info', 'a changed page may be a copy of an unchanged one (or the other way round): checked every page');
  }
  return assemble(ctx, selected, await judgeRead(ctx, selected, files, config), [], key);
}

/** Whether the unchanged pages' verdicts stand beside the changed ones (page-checks.ts), reading the few neighbours that need a comparison. */
async function keptVerdictsStand(split: ChecksAgainstPrevious, changed: JudgedRead, files: CommitFiles, config: RepoConfig): Promise<boolean> {
  if (config.duplicatePages?.enabled === false) return true;
  const neighbours = neighboursToCompare(split, changed.sketches.values());
  if (!neighbours) return false;
  if (neighbours.length === 0) return true;
  const texts = (await Promise.all(neighbours.map(async (path) => ({ path, text: (await files.read(path)) ?? '' })))).filter((p) => p.text !== '');
  const fresh = [...changed.judged.values()].flatMap((j) =>
    'page' in j && j.page.text !== undefined && changed.sketches.has(j.page.file.path) ? [{ path: j.page.file.path, text: j.page.text }] : [],
  );
  return !anyNearDuplicate(fresh, texts, config.duplicatePages?.threshold);
}

interface JudgedRead {
  judged: Map<string, Judged>;
  copies: Map<string, string>;
  sketches: Map<string, number[]>;
  read: number;
}

/** Reads and judges `toRead`: stubs, unreadable pages, and copies among them. */
async function judgeRead(ctx: PagesContext, toRead: readonly ListedDocument[], files: CommitFiles, config: RepoConfig): Promise<JudgedRead> {
  const judged = new Map<string, Judged>();
  for (const [i, file] of toRead.entries()) {
    judged.set(file.path, await readOne(ctx, file, files, config));
    if (i % 200 === 199) await ctx.checkpoint();
  }
  const candidates = [...judged.values()].flatMap((j) => ('page' in j ? [{ path: j.page.file.path, text: j.page.text ?? '' }] : []));
  const compared =
    config.duplicatePages?.enabled === false
      ? { copies: new Map<string, string>(), sketches: new Map<string, number[]>() }
      : duplicateCheck(candidates, files.paths(), config.duplicatePages?.threshold);
  return { judged, ...compared, read: toRead.length };
}

/** The build's pages in `selected` order, from what was read now and the verdicts `kept`. */
function assemble(ctx: PagesContext, selected: readonly ListedDocument[], now: JudgedRead, kept: readonly PageCheck[], key: string): ReadPages {
  const { judged, copies, sketches } = now;
  for (const c of kept)
    judged.set(
      c.p,
      c.x === undefined ? { page: { file: { path: c.p, hash: c.h } } } : { check: c, note: c.x === 'stub' ? 'redirect stub' : `a copy of ${c.c ?? '?'}` },
    );
  for (const [copy, twin] of copies) {
    const j = judged.get(copy);
    if (j && 'page' in j)
      judged.set(copy, { check: { p: copy, h: j.page.file.hash, x: 'copy', c: twin, ...sketchOf(sketches, copy) }, note: `a copy of ${twin}` });
  }
  const pages: Page[] = [];
  const excluded = new Set<string>();
  const notes: string[] = [];
  const checks: PageCheck[] = [];
  const keptByPath = new Map(kept.map((c) => [c.p, c]));
  for (const file of selected) {
    const j: Judged = judged.get(file.path) ?? { check: { p: file.path, h: file.hash, x: 'unjudged' } };
    if ('page' in j) {
      pages.push({ file, ...(j.page.text !== undefined ? { text: j.page.text } : {}) });
      checks.push(keptByPath.get(file.path) ?? { p: file.path, h: file.hash, ...sketchOf(sketches, file.path) });
      continue;
    }
    checks.push(j.check);
    // Reused without being read: neither a page nor left out.
    if (j.check.x === 'unjudged') continue;
    excluded.add(file.path);
    if (j.note) notes.push(`skipped ${file.path}: ${j.note}`);
  }
  for (const line of notes.slice(0, 30)) ctx.log('info', line);
  if (notes.length > 30) ctx.log('info', `... and ${notes.length - 30} more pages left out by their content`);
  return { pages, excluded, checks: { key, pages: checks }, read: now.read };
}

async function readOne(ctx: PagesContext, file: ListedDocument, files: CommitFiles, config: RepoConfig): Promise<Judged> {
  // Reused without its text (a page that answered 304): it cannot be judged a copy.
  if (file.reuseOnly) return { check: { p: file.path, h: file.hash, x: 'unjudged' } };
  const text = await files.read(file.path);
  if (text === undefined) {
    ctx.log('warn', `skipped ${file.path}: binary or not UTF-8`);
    return { check: { p: file.path, h: file.hash, x: 'unreadable' } };
  }
  const stub = config.defaultExclusions?.redirectStubs === false ? undefined : redirectStubReason(text);
  if (stub) return { check: { p: file.path, h: file.hash, x: 'stub' }, note: stub };
  return { page: { file, text } };
}

function sketchOf(sketches: ReadonlyMap<string, number[]>, page: string): { k?: number[] } {
  const k = sketches.get(page);
  return k ? { k } : {};
}
