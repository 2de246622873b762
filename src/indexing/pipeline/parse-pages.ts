/**
 * Stage 2 of a build (build.ts): the pages as readers see them, parsed. Reads the selected
 * pages (stubs and copies left out, pages.ts), expands each changed page's includes, parses
 * it (or lets the source parse it: OpenAPI), tags its snippets with the page's kind, and sets
 * aside pages whose prose is not English. A page another page includes whole (SQLModel's
 * `{!…/annotations/en/tutorial002.md!}`, a README spliced into the docs' index) is read where it
 * is included, not as a page of its own. Code a Markdown page leaves unlabelled takes the
 * project's language when it reads as that (snippets/project-language.ts). Unchanged pages of
 * a refresh keep their served snippets and are not parsed.
 */
import type { JobContext } from '../jobs/worker';
import type { ParsedSnippet } from '../types';
import { judgeLanguage, proseOf } from '../discover/language';
import { withPageKind } from '../discover/page-kind';
import { parseDocument } from '../parsers';
import { dependentHash, describeProblems, expandIncludes, includeSettings, type IncludeProblem } from '../includes';
import { originalLineOf } from '../includes/line-map';
import { readPages, type Page } from './pages';
import { squash } from '../parsers/text-utils';
import { projectLanguage, withProjectLanguage } from '../snippets/project-language';
import type { PageChecks } from './page-checks';
import type { BuildPlan } from './build-plan';
import type { SourceSnapshot } from '../sources/source';

export interface ParsedPages {
  /** Snippets of the pages parsed now. */
  parsed: ParsedSnippet[];
  /** Path → manifest hash of every page in the build (a page with includes: its dependent hash). */
  fileHashes: Map<string, string>;
  /** Unchanged pages whose served snippets stay. */
  keep: string[];
  /** The page verdicts to keep for the next refresh. */
  checks: PageChecks;
  parsedCount: number;
}

/** What the page loop gathers (parsePages). */
interface PageLoop {
  parsed: ParsedSnippet[];
  fileHashes: Map<string, string>;
  unchanged: Set<string>;
  excluded: Set<string>;
  includeProblems: IncludeProblem[];
  included: number;
  parsedCount: number;
  /** Pages whose prose is not English although their names do not say so (decided after the loop). */
  foreign: { path: string; language: string; snippets: ParsedSnippet[] }[];
  /** Every page of the build, and those another page includes whole (left out after the loop). */
  pagePaths: Set<string>;
  fragments: Set<string>;
  /** The language most of the repository's source is in, for code its pages leave unlabelled (snippets/project-language.ts). */
  language: string;
}

export async function parsePages(ctx: JobContext, snap: SourceSnapshot, plan: BuildPlan): Promise<ParsedPages> {
  const documents = snap.documents;
  const { amends, manifest, unchanged } = plan;
  const includes = await includeSettings(snap.files);
  const { pages, excluded, checks, read } = await readPages(ctx, documents, snap.files, snap.config, amends ? manifest?.checked : undefined);
  if (read < documents.length) ctx.log('info', `read ${read} of ${documents.length} pages; the others kept their verdicts (stub, copy, page)`);
  const loop: PageLoop = {
    parsed: [],
    fileHashes: new Map(),
    unchanged: new Set(amends ? unchanged : []),
    excluded,
    includeProblems: [],
    included: 0,
    parsedCount: 0,
    foreign: [],
    pagePaths: new Set(pages.map((p) => p.file.path)),
    fragments: new Set(),
    language: projectLanguage(snap.files.paths()),
  };
  // Documents reused without being read (a page that answered 304) keep their hash.
  for (const d of documents) if (d.reuseOnly && loop.unchanged.has(d.path)) loop.fileHashes.set(d.path, d.hash);
  let reported = 0;
  for (const page of pages) {
    await parsePage(ctx, snap, plan, includes, page, loop);
    if (loop.parsedCount - reported >= 50) {
      reported = loop.parsedCount;
      await ctx.progress({ filesParsed: loop.parsedCount, filesReused: unchanged.length });
      await ctx.checkpoint();
    }
  }
  withoutFragments(ctx, loop);
  keepEnglishPages(ctx, loop.foreign, loop.parsed, loop.fileHashes, loop.parsedCount);
  // The unchanged documents whose served snippets stay: still in the build (not left out as copies or fragments).
  const keep = [...loop.unchanged].filter((p) => loop.fileHashes.has(p) && !excluded.has(p) && !loop.fragments.has(p));
  ctx.log('info', `parsed ${loop.parsedCount} files, kept the snippets of ${keep.length} unchanged files`);
  if (loop.included > 0 || loop.includeProblems.length > 0)
    ctx.log('info', `resolved ${loop.included} includes; ${loop.includeProblems.length} left as written`);
  for (const line of describeProblems(loop.includeProblems)) ctx.log('warn', line);
  await ctx.progress({ filesParsed: loop.parsedCount, filesReused: keep.length });
  return { parsed: loop.parsed, fileHashes: loop.fileHashes, keep, checks, parsedCount: loop.parsedCount };
}

/** One page: kept as served when unchanged, else read, its includes expanded, parsed and tagged with its kind. */
async function parsePage(
  ctx: JobContext,
  snap: SourceSnapshot,
  plan: BuildPlan,
  includes: Awaited<ReturnType<typeof includeSettings>>,
  page: Page,
  loop: PageLoop,
): Promise<void> {
  const file = page.file;
  loop.fileHashes.set(file.path, file.hash);
  if (loop.unchanged.has(file.path)) return;
  const text = page.text ?? (await snap.files.read(file.path));
  if (text === undefined) {
    // Judged readable before (same content): only a lower size limit makes it unreadable now.
    ctx.log('warn', `skipped ${file.path}: binary, not UTF-8 or too large`);
    loop.fileHashes.delete(file.path);
    loop.excluded.add(file.path);
    return;
  }
  loop.parsedCount++;
  if (snap.parse) {
    loop.parsed.push(...(await snap.parse({ path: file.path, text })).map((s) => ({ ...s, pageKind: s.pageKind ?? ('reference' as const) })));
    return;
  }
  const expanded = await expandIncludes({ path: file.path, text }, snap.files, includes);
  loop.includeProblems.push(...expanded.problems);
  await noteFragments(snap, file.path, expanded, loop);
  if (expanded.included.length > 0) {
    loop.included += expanded.included.length;
    const hash = dependentHash(file.hash, expanded.included, snap.files);
    loop.fileHashes.set(file.path, hash);
    // A page with includes is unchanged when neither it nor what it includes changed
    // (its manifest entry is that dependent hash, not its own content hash).
    if (plan.amends && plan.previousHashes.get(file.path) === hash) {
      loop.unchanged.add(file.path);
      loop.parsedCount--;
      return;
    }
  }
  // Start lines counted in the expanded text point at the page as written.
  const lineOf = originalLineOf(text, expanded.text);
  const parsed = parseDocument({ path: file.path, text: expanded.text }).map((s) =>
    withProjectLanguage({ ...s, startLine: lineOf(s.startLine) }, loop.language),
  );
  const snippets = withPageKind(file.path, text, parsed);
  const verdict = judgeLanguage(proseOf(text));
  if (verdict.english) loop.parsed.push(...snippets);
  else loop.foreign.push({ path: file.path, language: verdict.language ?? 'unknown', snippets });
}

/**
 * The pages this page includes whole: their whole text, whitespace aside, stands in the
 * expanded page (a part picked by lines or markers does not make the rest a fragment). A
 * refresh learns it again whenever the fragment changes, since the including page's
 * dependent hash changes with it; the fragment keeps its manifest entry, so while both stay
 * unchanged it stays without snippets.
 */
async function noteFragments(snap: SourceSnapshot, page: string, expanded: { text: string; included: string[] }, loop: PageLoop): Promise<void> {
  let flat: string | undefined;
  for (const target of expanded.included) {
    if (target === page || !loop.pagePaths.has(target) || loop.fragments.has(target)) continue;
    const text = squash((await snap.files.read(target)) ?? '');
    flat ??= squash(expanded.text);
    if (text !== '' && flat.includes(text)) loop.fragments.add(target);
  }
}

function withoutFragments(ctx: JobContext, loop: PageLoop): void {
  if (loop.fragments.size === 0) return;
  loop.parsed = loop.parsed.filter((s) => !loop.fragments.has(s.path));
  loop.foreign = loop.foreign.filter((f) => !loop.fragments.has(f.path));
  const names = [...loop.fragments].sort();
  ctx.log(
    'info',
    `${names.length} pages are included whole in other pages and read there, not as pages of their own: ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', …' : ''}`,
  );
}

/**
 * Pages found not to be English by their content are left out, the English pages kept,
 * unless they are most of the docs: then the library is written in that language and
 * everything is kept. A page left out is re-judged on the next build (no manifest entry).
 */
function keepEnglishPages(
  ctx: JobContext,
  foreign: { path: string; language: string; snippets: ParsedSnippet[] }[],
  parsed: ParsedSnippet[],
  fileHashes: Map<string, string>,
  parsedCount: number,
): void {
  if (foreign.length === 0) return;
  if (foreign.length * 2 > parsedCount) {
    ctx.log('info', `${foreign.length} of ${parsedCount} pages are not in English: kept, the docs are written in their language`);
    for (const f of foreign) parsed.push(...f.snippets);
    return;
  }
  for (const f of foreign.slice(0, 30)) ctx.log('info', `skipped ${f.path}: not English (${f.language}) by its content`);
  if (foreign.length > 30) ctx.log('info', `... and ${foreign.length - 30} more pages not in English`);
  for (const f of foreign) fileHashes.delete(f.path);
}
