/**
 * What a documentation page is, decided at index time from its path, its front matter and
 * its headings: a guide (the default), API reference, examples, a catalogue of error or
 * warning messages, a changelog or release notes, a migration or upgrade guide, a blog post or
 * announcement, a page for the project's maintainers (design wikis, release procedures,
 * sandbox pages, template READMEs), or a redirect stub. Ranking uses the kind
 * (search/page-kinds.ts): changelogs, posts and other versions' migration guides do not
 * outrank the reference for a how-to question, and lead when the question asks what changed;
 * an error catalogue answers questions about an error, not the topic its messages name.
 * Changelogs and migration guides also carry the version they are about (`pageVersion`), so
 * "what changed in 9" finds the 8 → 9 guide.
 */

import type { PageKind } from '../../search/types';
import { excludedFileReason, maintainersPageReason } from './defaults';

export { PAGE_KINDS, type PageKind } from '../../search/types';

export interface PageFacts {
  /** Repository-relative path. */
  path: string;
  /** The page's title (front matter title, first H1 or file name). */
  title: string;
  /** Its headings below the title, in order. */
  headings: readonly string[];
  /** The page's raw text (only the front matter at its start is read). */
  text: string;
}

const BLOG_DIR = /^(blog|blogs|posts|news|announcements?|newsletters?|articles)$/i;
const CHANGELOG_NAME = /^(change[-_ ]?log|changes|history|news|releases?|release[-_ ]?notes?|whats[-_]?new|what-s-new)([-_. ]?v?\d[\w.]*)?$/i;
const CHANGELOG_DIR = /^(change[-_ ]?logs?|changes|releases|release[-_]notes)$/i;
const MIGRATION_WORDS = /\b(migrat\w*|upgrad\w*|porting|moving[-_ ]to|breaking[-_ ]changes)\b/i;
// At a word start: "importing-and-exporting-components" and "…-reporting-…" are no ports.
const MIGRATION_NAME = /(?:^|[-_.])(migrat|upgrad|porting|moving[-_]to|breaking[-_]changes)/i;
const REFERENCE_DIR = /^(api|apis|reference|references|api[-_]reference|api[-_]docs)$/i;
const EXAMPLE_DIR = /^(examples?|samples?|recipes|cookbook|showcase)$/i;
/**
 * A catalogue of messages, one section per error or warning (Svelte's compile errors, Pydantic's
 * usage errors, SQLAlchemy's errors.rst, React's error decoder pages, Vue's error reference):
 * named so as a file or a folder, with an optional number and a word saying whose. Not a guide
 * about handling errors (`error-handling`, `handling-errors`, `error-customization`).
 */
const ERRORS_NAME =
  /^(\d+[-_.])?((compile|compiler|runtime|client|server|shared|build|usage|validation|type)[-_])?(errors?|warnings?|error[-_](codes?|messages?|reference))$/i;
/** A heading that is only a version (with a date): "3.1.0", "v2.0.0 (2024-01-02)", "Version 3.1". */
const VERSION_HEADING = /^(version\s+|release\s+|v)?\d+\.\d+(\.\d+)?([-.+][\w.]+)?(\s*[-–—(]?\s*(\d{4}-\d{2}-\d{2}|\w+ \d{1,2},? \d{4}|unreleased)\)?)?$/i;

function stemOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** The leading front matter's keys, lower-cased (only `key:` lines at the top level). */
function frontMatterKeys(text: string): Set<string> {
  const keys = new Set<string>();
  if (!text.startsWith('---')) return keys;
  const end = text.indexOf('\n---', 3);
  if (end < 0 || end > 20_000) return keys;
  for (const line of text.slice(3, end).split('\n')) {
    const m = /^([A-Za-z_][\w-]*)\s*:/.exec(line);
    if (m) keys.add(m[1].toLowerCase());
  }
  return keys;
}

/** The kind of a page (not a stub: stubs are recognised by their content, discover/stubs.ts). */
export function classifyPage(page: PageFacts): PageKind {
  const segments = page.path.split('/');
  const name = segments[segments.length - 1];
  const stem = stemOf(name);
  const dirs = segments.slice(0, -1);
  const title = page.title.trim();
  // Left out by default (discover/defaults.ts); a page a repository config keeps is still internal.
  if (maintainersPageReason(page.path) !== undefined || excludedFileReason(name, dirs.length === 0) === "maintainers' notes") return 'internal';
  if (MIGRATION_NAME.test(stem) || MIGRATION_WORDS.test(title)) return 'migration';
  if (CHANGELOG_NAME.test(stem) || dirs.some((d) => CHANGELOG_DIR.test(d)) || /^(change ?log|release notes|what'?s new)\b/i.test(title)) return 'changelog';
  if (dirs.some((d) => BLOG_DIR.test(d))) return 'blog';
  const front = frontMatterKeys(page.text);
  if (front.has('date') && (front.has('author') || front.has('authors'))) return 'blog';
  const versions = page.headings.filter((h) => VERSION_HEADING.test(h.trim())).length;
  if (versions >= 3 && versions * 2 >= page.headings.length) return 'changelog';
  if (ERRORS_NAME.test(stem) || dirs.some((d) => ERRORS_NAME.test(d)) || /^(error|warning) (messages|codes|reference)$/i.test(title)) return 'errors';
  if (dirs.some((d) => REFERENCE_DIR.test(d)) || /^api([-_]reference)?$/i.test(stem)) return 'reference';
  if (dirs.some((d) => EXAMPLE_DIR.test(d))) return 'example';
  return 'guide';
}

/**
 * The version a changelog or migration page is about, as "major" or "major.minor":
 * `migration-v2-to-v3` → 3, `migrating_to_9` → 9, `v5-migration-guide` → 5, SQLAlchemy's
 * `whatsnew_20` → 2.0, a title "Migrating to Mongoose 9" → 9, `v4/changelog.mdx` → 4, a
 * title "Migration from v7" → 8.
 * Undefined when the page names none.
 */
export function pageVersion(page: Pick<PageFacts, 'path' | 'title'>): string | undefined {
  const segments = page.path.split('/');
  const stem = stemOf(segments[segments.length - 1]).toLowerCase();
  // The version a guide leads to, also past a name: `migrate-from-pydantic-v1-to-pydantic-v2` → 2.
  const to = /(?:^|[-_ ])to[-_ ]?(?:[a-z]+[-_ ])?v?(\d+(?:[._]\d+)?)(?:$|[-_ ])/.exec(stem);
  if (to) return normalise(to[1]);
  const packed = /^(?:whats[-_]?new|migration|changelog|changes)[-_](\d)(\d)$/.exec(stem);
  if (packed) return `${packed[1]}.${packed[2]}`;
  // A v-number before a bare one, which may be an ordering prefix (Svelte's `07-v5-migration-guide`).
  const named = /(?:^|[-_])v(\d+(?:[._]\d+)?)(?:[-_]|$)/.exec(stem) ?? /(?:^|[-_])(\d+(?:[._]\d+)?)(?:[-_]|$)/.exec(stem);
  if (named && /migrat|upgrad|whats|changelog|changes|release/.test(stem)) return normalise(named[1]);
  // A guide "from v7" alone (Vite 8's "Migration from v7") leads to the next major.
  const from = /\bfrom\s+(?:[A-Z][\w.-]*\s+)?[Vv]?(\d+)(?:\.x)?\s*$/.exec(page.title);
  if (from && !/\bto\b/i.test(page.title)) return String(Number(from[1]) + 1);
  // "to" first ("from Koa v1.x to v2.x" → 2), past the library's name ("to Mongoose 9").
  const inTitle =
    /\b[Tt]o\s+(?:[A-Z][\w.-]*\s+)?[Vv]?(\d+(?:\.\d+)?)\b/.exec(page.title) ??
    /\b(?:to|v|version)\s*(\d+(?:\.\d+)?)\b/i.exec(page.title) ??
    /\b(\d+(?:\.\d+)?)(?:\.x)?\s+(?:migration|upgrade)/i.exec(page.title);
  if (inTitle) return normalise(inTitle[1]);
  const folder = segments
    .slice(0, -1)
    .reverse()
    .find((d) => /^v\d+$/i.test(d));
  return folder ? folder.slice(1) : undefined;
}

function normalise(version: string): string {
  return version.replace('_', '.').replace(/^0+(?=\d)/, '');
}

/**
 * The snippets of one parsed page with its kind (and, for changelogs and migration guides,
 * the version they are about). `text` is the page as written (its front matter is read).
 */
export function withPageKind<T extends { pageTitle: string; title: string; pageKind?: PageKind; pageVersion?: string }>(
  path: string,
  text: string,
  snippets: readonly T[],
): T[] {
  if (snippets.length === 0) return [];
  const title = snippets[0].pageTitle;
  const headings = [...new Set(snippets.map((s) => s.title).filter((h) => h !== title))];
  const kind = classifyPage({ path, title, headings, text });
  const version = kind === 'changelog' || kind === 'migration' ? pageVersion({ path, title }) : undefined;
  return snippets.map((s) => ({ ...s, pageKind: kind, ...(version !== undefined ? { pageVersion: version } : {}) }));
}
