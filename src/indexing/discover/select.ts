/**
 * Which files of a repository are documentation: extensions, the repo config's folders and
 * exclusions, Context7's default exclusions (changelogs, licences, codes of conduct,
 * archived/legacy folders, translations) and version filtering (pages that belong to
 * other versions). Pure: it sees only paths, sizes and symlink flags.
 */
import type { RepoConfig } from './config';

export interface RepoFileInfo {
  path: string;
  size: number;
  isSymlink: boolean;
}

export interface SelectOptions {
  config?: RepoConfig;
  skipVersionFiltering?: boolean;
  maxFileBytes?: number;
  /** The version being built (a tag like "v4.4.3" or "5.56.10"), to keep its own version folders. */
  versionHint?: string;
}

export const DOC_EXTENSIONS = ['.md', '.mdx', '.markdown', '.rst', '.txt', '.ipynb', '.adoc'];

const EXCLUDED_DIRS = new Set(['archive', 'archived', 'deprecated', 'legacy', 'old', 'outdated', 'node_modules', 'vendor', '.git', '.github', '_build', 'site-packages', '__fixtures__', '.vitepress', '.docusaurus', 'changelog', 'changelogs', 'changes', 'unreleased']);
/** Build output only at the top of the repository (Sphinx keeps its sources in doc/build/). */
const EXCLUDED_TOP_DIRS = new Set(['dist', 'build', 'out', 'coverage', 'target']);
/** Conventional upper-case project files (a lower-case `changelog.mdx` inside docs is a page). */
const EXCLUDED_FILE = /^(CHANGELOG|CHANGES|HISTORY|NEWS|RELEASES|RELEASE[-_]NOTES|LICEN[CS]E|COPYING|CODE[-_]OF[-_]CONDUCT|CONTRIBUTING|SECURITY|AUTHORS|CONTRIBUTORS|MAINTAINERS|GOVERNANCE|SUPPORT|FUNDING)([-_.][^/]*)?$/;
const NOT_DOC_TXT = /^(requirements.*|robots|cmakelists|license|licence|copying|notice|.*\.lock|dependencies|constraints.*|dev-requirements.*|.*[-_]words|.*wordlist.*|.*spelling.*|version)\.txt$/i;
const LANGS = new Set(
  'ar az bg bn ca cs da de el em es et fa fi fr he hi hr hu hy id it ja ka kk km ko ky lt lv mn ms my nb nl no pl pt pt-br pt-pt ro ru sk sl sq sr sv sw ta te th tl tr uk ur uz vi yo zh zh-cn zh-hans zh-hant zh-tw zh-hk'.split(' '),
);
const TRANSLATION_CONTAINERS = new Set(['i18n', 'locales', 'locale', 'translations', 'translation', 'lang', 'langs']);
const VERSION_DIR = /^(v\d+(\.\d+)*(\.x)?|\d+(\.\d+)*\.?x|version-\d[\w.-]*|\d+\.\d+(\.\d+)?)$/i;
const VERSIONED_CONTAINERS = new Set(['versioned_docs', 'versioned_sidebars', 'versioned-docs', 'old-versions', 'older-versions']);

export function selectDocFiles(files: readonly RepoFileInfo[], options: SelectOptions = {}): { selected: string[]; skipped: { path: string; reason: string }[] } {
  const maxBytes = options.maxFileBytes ?? 2 * 1024 * 1024;
  const config = options.config ?? {};
  const folders = (config.folders ?? []).map(normDir).filter(Boolean);
  const excludeFolders = (config.excludeFolders ?? []).map((f) => globToRegex(normDir(f), true));
  const excludeFiles = (config.excludeFiles ?? []).map((f) => globToRegex(f.replace(/^\.?\//, ''), false));
  const allDirs = new Set<string>();
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) allDirs.add(parts.slice(0, i).join('/'));
  }
  const major = majorOf(options.versionHint);
  const selected: string[] = [];
  const skipped: { path: string; reason: string }[] = [];
  const skip = (path: string, reason: string) => skipped.push({ path, reason });

  for (const f of files) {
    const path = f.path;
    const lower = path.toLowerCase();
    if (!DOC_EXTENSIONS.some((e) => lower.endsWith(e))) {
      skip(path, 'extension');
      continue;
    }
    if (path.startsWith('/') || path.split('/').some((s) => s === '..' || s === '.' || s === '')) {
      skip(path, 'path leaves the repository');
      continue;
    }
    if (f.isSymlink) {
      skip(path, 'symlink (not followed)');
      continue;
    }
    if (f.size > maxBytes) {
      skip(path, `too large (${f.size} bytes > ${maxBytes})`);
      continue;
    }
    const explicitlyIncluded = folders.some((d) => path === d || path.startsWith(`${d}/`));
    if (folders.length > 0 && !explicitlyIncluded) {
      skip(path, 'outside the configured folders');
      continue;
    }
    if (excludeFolders.some((re) => re.test(path))) {
      skip(path, 'excluded folder (config)');
      continue;
    }
    const name = path.split('/').pop() ?? path;
    if (excludeFiles.some((re) => re.test(name) || re.test(path))) {
      skip(path, 'excluded file (config)');
      continue;
    }
    const dirs = path.split('/').slice(0, -1);
    const reason = explicitlyIncluded ? undefined : defaultExclusion(path, name, dirs, allDirs, options.skipVersionFiltering === true, major);
    if (reason) {
      skip(path, reason);
      continue;
    }
    selected.push(path);
  }
  return { selected, skipped };
}

function defaultExclusion(path: string, name: string, dirs: string[], allDirs: Set<string>, skipVersionFiltering: boolean, major: number | undefined): string | undefined {
  const base = name.replace(/\.[^.]+$/, '');
  if (EXCLUDED_FILE.test(base) || EXCLUDED_FILE.test(name)) return 'changelog, licence or project policy file';
  if (name.toLowerCase().endsWith('.txt') && NOT_DOC_TXT.test(name)) return 'not documentation';
  for (const [i, d] of dirs.entries()) {
    const dl = d.toLowerCase();
    if (EXCLUDED_DIRS.has(dl) || (i === 0 && EXCLUDED_TOP_DIRS.has(dl))) return `in ${d}/ (excluded by default)`;
    if (TRANSLATION_CONTAINERS.has(dl) && i + 1 < dirs.length && dirs[i + 1].toLowerCase() !== 'en') return 'translation';
    if (LANGS.has(dl)) {
      const parent = dirs.slice(0, i).join('/');
      const hasEnglishSibling = allDirs.has(parent ? `${parent}/en` : 'en') || allDirs.has(parent ? `${parent}/en-us` : 'en-us');
      const inContainer = i > 0 && TRANSLATION_CONTAINERS.has(dirs[i - 1].toLowerCase());
      if (hasEnglishSibling || inContainer) return 'translation';
    }
    if (!skipVersionFiltering) {
      if (VERSIONED_CONTAINERS.has(dl)) return 'documentation of another version';
      const m = VERSION_DIR.exec(d) ?? /[-_]v(\d+)$/i.exec(d);
      if (m && isOtherVersion(d, dirs.slice(0, i).join('/'), allDirs, major)) return 'documentation of another version';
    }
  }
  return undefined;
}

/**
 * A version folder belongs to another version when the built version's major is known and
 * differs; when it is not known, every version folder but the newest among its siblings does.
 */
function isOtherVersion(dir: string, parent: string, allDirs: Set<string>, major: number | undefined): boolean {
  const own = majorOf(dir);
  if (own === undefined) return false;
  if (major !== undefined) return own !== major;
  let newest = own;
  const prefix = parent ? `${parent}/` : '';
  for (const d of allDirs) {
    if (!d.startsWith(prefix)) continue;
    const rest = d.slice(prefix.length);
    if (rest.includes('/')) continue;
    const m = majorOf(rest);
    if (m !== undefined && (VERSION_DIR.test(rest) || /[-_]v\d+$/i.test(rest)) && m > newest) newest = m;
  }
  return own !== newest;
}

/** The major version number named by a tag or folder ("v4.4.3" → 4, "5x" → 5, "svelte@5.1" → 5, "docs-v3" → 3). */
export function majorOf(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const m = /(?:^|[@/_-])v?(\d+)(?:[.x]|$)/i.exec(s) ?? /^v?(\d+)/i.exec(s);
  return m ? Number(m[1]) : undefined;
}

function normDir(d: string): string {
  return d.replace(/^\.?\/+/, '').replace(/\/+$/, '');
}

/** Glob (`*`, `**`) to a regex; a folder pattern matches at any depth as a whole segment sequence. */
function globToRegex(glob: string, folder: boolean): RegExp {
  const body = glob
    .split('**')
    .map((part) => part.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*'))
    .join('.*');
  return folder ? new RegExp(`(^|/)${body}/`) : new RegExp(`(^|/)${body}$`);
}
