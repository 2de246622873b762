/**
 * Context7's default exclusions, and ours: files that are not documentation of the library
 * (changelogs, licences, contributor and policy files, non-doc `.txt` files) and folders that
 * hold no current documentation (archives, dependencies, build output, tests, tooling).
 */

/**
 * Files that are never documentation of the library, in any case and with any suffix
 * (`LICENSE-DOCS.md`, `contributing-guide.md`, `release-notes-2.1.md`).
 */
const PROJECT_FILE = /^(licen[cs]e|copying|code[-_ ]?of[-_ ]?conduct|coc|contributing|collaborators?(?:[-_ ]guide)?|release[-_ ]?notes)([-_. ].*)?$/i;
/**
 * Changelogs and credits by convention (`CHANGELOG.md`, `CHANGELOG-pre-5.md`, `History.md`,
 * `CHANGES.rst`, `AUTHORS`): capitalised, or at the root. In lower case inside a folder the
 * same words name pages: zod's `content/v4/changelog.mdx` is its migration guide, Vite's
 * `docs/releases.md` its release policy, FastAPI's `history-design-future.md` an essay.
 */
const CONVENTIONAL_FILE = /^(change[-_ ]?log|changes|history|news|releases|authors|contributors|maintainers)([-_. ].*)?$/i;
/** Per-version changelogs are changelogs in any case (SQLAlchemy's `changelog/changelog_14.rst`). */
const VERSIONED_CHANGELOG = /^(change[-_ ]?log|changes|history|news|releases)[-_. ]?v?\d/i;
/** Policy and tooling files excluded when spelled the conventional way (upper case) or at the root. */
const POLICY_FILE = /^(security|support|governance|funding|notice|patents|agents|claude|gemini|codeowners|pull_request_template|issue_template)$/i;
/**
 * Navigation and maintainers' notes: mdBook's `SUMMARY.md` and docsify's `_sidebar.md` are
 * tables of contents (the pages they list are indexed), `TODO.md`, `ADMIN_TASKS.md`,
 * `RELEASING.md` are for the people who keep the docs, not their readers.
 */
const NAVIGATION_FILE = /^(summary|_sidebar|_navbar|_coverpage)$/i;
const ADMIN_FILE = /^(todo|todos|admin[-_ ]?tasks|maintaining|maintainers?[-_ ]guide|releasing|release[-_ ](process|checklist)|triage)$/i;
/** `.txt` files that are lists, locks or configuration rather than prose. */
const OUTPUT_TXT = /^(output|.*[-_]output)$/i;
const NOT_DOC_TXT =
  /^(requirements.*|.*[-_.]requirements|constraints.*|robots|cmakelists|.*\.lock|.*[-_]?words|.*wordlist.*|.*spelling.*|.*dictionary.*|stopwords|version|manifest|top_level|dependency_links|sources|entry_points|not-zip-safe|accept|reject)$/i;
/** Folders whose `.txt` files are data or assets, not prose. */
const TXT_DATA_DIRS = new Set(['requirements', 'public', 'static', 'assets', 'data', 'testdata']);

/** Folders never holding the library's documentation, wherever they are. */
const EXCLUDED_DIRS = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  'vendor',
  'third_party',
  'third-party',
  'site-packages',
  '__pycache__',
  'venv',
  'dist',
  '_build',
  '_sources',
  'coverage',
  'htmlcov',
  'test',
  'tests',
  '__tests__',
  '__fixtures__',
  '__snapshots__',
  '__mocks__',
  'testdata',
  'test-fixtures',
  'changelogs',
  'changelog.d',
  'changes.d',
  'newsfragments',
  // End-to-end test apps (Vite's playground/), not pages.
  'playground',
  'playgrounds',
]);
/**
 * Pages for the people who keep the project, wherever they are: design wikis, internals,
 * sandboxes, RFCs and decision records; release procedures and task lists by their names;
 * a project template's README (what `create-*` copies, not documentation of the library).
 */
const MAINTAINERS_DIRS = new Set([
  'wiki',
  'wikis',
  'internal',
  'internals',
  'sandbox',
  'sandboxes',
  'design-docs',
  'design_docs',
  'dev-docs',
  'rfcs',
  'adr',
  'adrs',
]);
// Not `release-process`: inside the docs it is the published release policy (requests'
// docs/community/release-process.rst); at the root it is a maintainers' note (ADMIN_FILE).
const MAINTAINERS_FILE =
  /^(release[-_](items|procedure|checklist|steps)|management[-_]tasks|maintainers?[-_]guide|maintaining|triage|governance|design[-_]notes?)$/i;
const TEMPLATE_DIR = /^(templates?|template[-_][\w.-]+|starters?|boilerplates?)$/i;

/** Why a page is for the project's maintainers rather than its users, or undefined (`path` repository-relative). */
export function maintainersPageReason(path: string): string | undefined {
  const parts = path.split('/');
  const name = parts[parts.length - 1];
  const dirs = parts.slice(0, -1);
  const stem = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name;
  const dir = dirs.find((d) => MAINTAINERS_DIRS.has(d.toLowerCase()));
  if (dir) return `in ${dir}/ (maintainers' pages)`;
  if (MAINTAINERS_FILE.test(stem)) return "maintainers' notes";
  if (/^readme$/i.test(stem) && dirs.some((d) => TEMPLATE_DIR.test(d))) return "a project template's README (maintainers' pages)";
  return undefined;
}

/** Sample and benchmark data, not pages. */
const SAMPLE_DATA_DIRS = new Set(['sample-data', 'sample_data', 'sampledata', 'bench-data', 'benchmark-data']);
/** Changelog fragments waiting for a release (`unreleased/`, SQLAlchemy's `unreleased_20/`). */
const UNRELEASED_DIR = /^unreleased([-_.]\w+)?$/i;
/**
 * Build output: `build/`, `out/`, `target/` are output unless a documentation folder keeps
 * its sources there (SQLAlchemy's docs live in `doc/build/`).
 */
const OUTPUT_DIRS = new Set(['build', 'out', 'target']);
const DOC_DIRS = new Set(['doc', 'docs', 'documentation']);
/**
 * Archived or superseded material (Context7 excludes `*archive*`, `*deprecated*`, `*legacy*`,
 * `*previous*`, …). Matched as a word at either end of the name with at most a numeric
 * ordering prefix or a doc-ish affix, so `99-legacy/` and `legacy-docs/` go while
 * `plugin-legacy/` (a current package of Vite) stays.
 */
const ARCHIVED_WORD = '(archive[sd]?|archived|deprecated|legacy|outdated|superseded|previous|old)';
const ARCHIVED_DIR = new RegExp(
  `^(\\d+[-_. ])?((docs?|documentation)[-_. ])?${ARCHIVED_WORD}([-_. ](docs?|documentation|guides?|pages|content|api|versions?|releases?|site|\\d[\\w.]*))?$`,
  'i',
);

/** Why a file name is excluded by default, or undefined. `atRoot` is true for files at the repository root. */
export function excludedFileReason(name: string, atRoot: boolean): string | undefined {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const m = PROJECT_FILE.exec(stem) ?? VERSIONED_CHANGELOG.exec(stem) ?? (atRoot || /^[A-Z]/.test(stem) ? CONVENTIONAL_FILE.exec(stem) : null);
  if (m) return projectFileReason(m[1]);
  if (POLICY_FILE.test(stem) && (atRoot || stem === stem.toUpperCase())) return 'project policy file';
  if (NAVIGATION_FILE.test(stem) && (stem.startsWith('_') || stem === stem.toUpperCase())) return 'navigation file';
  if (ADMIN_FILE.test(stem) && (atRoot || stem === stem.toUpperCase())) return "maintainers' notes";
  if (name.startsWith('.')) return 'hidden file';
  if (ext === 'txt' && OUTPUT_TXT.test(stem)) return 'output listing';
  if (ext === 'txt' && NOT_DOC_TXT.test(stem)) return 'not documentation';
  return undefined;
}

function projectFileReason(word: string): string {
  const w = word.toLowerCase();
  if (/^licen|^copying/.test(w)) return 'licence';
  if (/^(change|history|news|release)/.test(w)) return 'changelog';
  if (/^(authors|contributors|maintainers)$/.test(w)) return 'contributor file';
  if (/^(code|coc)/.test(w)) return 'code of conduct';
  return 'contributor file';
}

/**
 * Why a folder excludes everything under it by default, or undefined. `dirs` are the file's
 * folders from the root and `i` the one to judge; `ext` is the file's extension.
 */
export function excludedDirReason(dirs: readonly string[], i: number, ext: string): string | undefined {
  const d = dirs[i];
  const dl = d.toLowerCase();
  // Hidden folders hold tooling (.github, .changeset, .vitepress, agent skills); Svelte's
  // docs include generated pages from `.generated/`, which are content.
  if (d.startsWith('.') && dl !== '.generated') return `in ${d}/ (hidden folder)`;
  if (EXCLUDED_DIRS.has(dl) || dl.endsWith('.egg-info')) return `in ${d}/ (excluded by default)`;
  if (SAMPLE_DATA_DIRS.has(dl)) return `in ${d}/ (sample data)`;
  if (UNRELEASED_DIR.test(d)) return `in ${d}/ (changelog fragments)`;
  if (OUTPUT_DIRS.has(dl) && !(i > 0 && DOC_DIRS.has(dirs[i - 1].toLowerCase()))) return `in ${d}/ (build output)`;
  if (ARCHIVED_DIR.test(d)) return `in ${d}/ (archived or deprecated)`;
  if (ext === 'txt' && TXT_DATA_DIRS.has(dl)) return 'not documentation';
  return undefined;
}

/**
 * The default exclusions a repository config can switch off (`defaultExclusions`), and the
 * reasons above that belong to each. Changelogs count as release notes.
 */
export const NON_DOC_KINDS = ['navigation', 'maintainerNotes', 'outputListings', 'sampleData', 'releaseNotes', 'redirectStubs'] as const;
export type NonDocKind = (typeof NON_DOC_KINDS)[number];

/** Which switchable kind an exclusion reason is, or undefined for the fixed ones. */
export function nonDocKind(reason: string): NonDocKind | undefined {
  if (reason === 'navigation file') return 'navigation';
  if (reason === "maintainers' notes" || reason.endsWith("(maintainers' pages)")) return 'maintainerNotes';
  if (reason === 'output listing') return 'outputListings';
  if (reason.endsWith('(sample data)')) return 'sampleData';
  if (reason === 'changelog' || reason.endsWith('(changelog fragments)')) return 'releaseNotes';
  return undefined;
}
