/**
 * Which source files of a repository generateDocs reads: library code, not tests, build
 * output, dependencies, fixtures or tooling configuration; the most central first (entry
 * files, then src/, lib/, packages/x/src, the Python package folder), capped.
 */

/** How many source files one library version contributes at most. */
export const MAX_SOURCE_FILES = 2000;
/** Larger files are generated or bundled code, not documentation. */
export const MAX_SOURCE_BYTES = 500 * 1024;

/** Options of `selectSourceFiles`. */
export interface SourceSelectionOptions {
  /** Defaults to MAX_SOURCE_FILES. */
  maxFiles?: number;
  /** A file's size in bytes, when known; files over `maxBytes` are left out. */
  sizeOf?: (path: string) => number | undefined;
  /** Defaults to MAX_SOURCE_BYTES. */
  maxBytes?: number;
}

const SOURCE_EXTENSION = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py)$/;
/** Folders never worth documenting: dependencies, build output, tests, fixtures, caches. */
const SKIPPED_FOLDER = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  'vendor',
  'vendored',
  'third_party',
  'third-party',
  'dist',
  'build',
  'out',
  'lib-cov',
  'coverage',
  'htmlcov',
  '_build',
  '_site',
  'site',
  'storybook-static',
  'test',
  'tests',
  '__tests__',
  '__mocks__',
  'e2e',
  'spec',
  'specs',
  'fixtures',
  '__fixtures__',
  'test-fixtures',
  'benchmark',
  'benchmarks',
  'bench',
  '__pycache__',
  'site-packages',
  'venv',
  'migrations',
]);
const TEST_FILE =
  /(\.|_|-)(test|spec|bench|e2e|test-d|stories|story)\.[cm]?[jt]sx?$|(^|\/)tests?\.[a-z]+$|(^|\/)test_[^/]*\.py$|_tests?\.py$|(^|\/)(conftest|setup|noxfile|fabfile|conf|manage)\.py$/;
const GENERATED_FILE = /[.-]min\.[cm]?js$|\.bundle\.[cm]?js$|\.(generated|gen|pb|chunk)\.[cm]?[jt]sx?$|(^|\/)[^/]*_pb2(_grpc)?\.py$/;
/** Tool configuration at any depth: vite.config.ts, .eslintrc.js, Gruntfile.js. */
const CONFIG_FILE = /(^|\/)([^/]+\.config\.[cm]?[jt]s|[^/]+rc\.[cm]?js|gulpfile\.[cm]?[jt]s|gruntfile\.[cm]?[jt]s|jest\.setup\.[cm]?[jt]s)$/i;
const ENTRY_FILE = /(^|\/)(index|__init__|main|mod)\.[a-z]+$|\.d\.[mc]?ts$/;
const SECONDARY_FOLDER = /(^|\/)(examples?|demos?|samples?|docs?|scripts?|tools?|bin|internal|_internal|private)\//;

/**
 * The source files worth documenting, most relevant first, at most `maxFiles`. Paths are
 * repository-relative with forward slashes; the order among equals is by path, so the
 * choice is stable.
 */
export function selectSourceFiles(paths: readonly string[], options: SourceSelectionOptions = {}): string[] {
  const maxFiles = options.maxFiles ?? MAX_SOURCE_FILES;
  const maxBytes = options.maxBytes ?? MAX_SOURCE_BYTES;
  const candidates = paths.filter((p) => isDocumentableSource(p) && (options.sizeOf?.(p) ?? 0) <= maxBytes);
  const packages = pythonPackageRoots(candidates);
  const ranked = candidates.map((path) => ({ path, rank: relevance(path, packages) }));
  ranked.sort((a, b) => a.rank - b.rank || a.path.localeCompare(b.path));
  return ranked.slice(0, maxFiles).map((r) => r.path);
}

/** Whether a path is library source rather than a test, dependency, build output or config. */
export function isDocumentableSource(path: string): boolean {
  if (!SOURCE_EXTENSION.test(path) || TEST_FILE.test(path) || GENERATED_FILE.test(path) || CONFIG_FILE.test(path)) return false;
  const parts = path.split('/');
  const file = parts.pop() ?? '';
  if (file.startsWith('.')) return false;
  if (parts.some((dir) => dir.startsWith('.') || SKIPPED_FOLDER.has(dir.toLowerCase()))) return false;
  // Sphinx/MkDocs output kept under docs/ (docs/_build is caught above).
  return !/(^|\/)docs?\/(html|api|site|\.vitepress\/dist)\//.test(path);
}

/**
 * Lower is more relevant: entry files (index, __init__, .d.ts) first, then the library's
 * own folders (src/, lib/, packages/x/src, Python packages, the repository root), then other
 * folders, then examples, scripts and internals; shallower before deeper.
 */
function relevance(path: string, pythonPackages: Set<string>): number {
  const depth = path.split('/').length;
  const top = path.split('/')[0];
  const central =
    depth === 1 ||
    /^(src|lib|source)\//.test(path) ||
    /^packages\/[^/]+\/(src|lib)\//.test(path) ||
    (path.endsWith('.py') && (pythonPackages.has(top) || (top === 'src' && depth > 2)));
  let rank = central ? 0 : 20;
  if (SECONDARY_FOLDER.test(path) || /(^|\/)_[^_/][^/]*\.py$/.test(path)) rank += 40;
  if (!ENTRY_FILE.test(path)) rank += 10;
  return rank + Math.min(depth, 9);
}

/** Top-level folders that are Python packages (they hold an `__init__.py`). */
function pythonPackageRoots(paths: string[]): Set<string> {
  const roots = new Set<string>();
  for (const p of paths) {
    const m = /^([^/]+)\/__init__\.py$/.exec(p);
    if (m) roots.add(m[1]);
  }
  return roots;
}
