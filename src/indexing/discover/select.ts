/**
 * Which files of a repository are documentation: extensions, safety (symlinks, paths leaving
 * the repository, size), the repo config's folders and exclusions, the default exclusions
 * (defaults.ts), translations (translations.ts) and version filtering (versions.ts). Pure:
 * it sees only paths, sizes and symlink flags, so every rule is testable without git.
 */
import type { RepoConfig } from './config';
import { excludedDirReason, excludedFileReason, maintainersPageReason, nonDocKind } from './defaults';
import { excludeFileMatcher, excludeFolderMatcher, includeFolderMatcher } from './patterns';
import { translationDirReason, translationFileReason } from './translations';
import { otherVersionReason, parseVersionHint, type VersionContext } from './versions';

/** One entry of the repository's tree: repo-relative path with forward slashes. */
export interface RepoFileInfo {
  path: string;
  size: number;
  isSymlink: boolean;
}

export interface SelectOptions {
  config?: RepoConfig;
  /** Keep pages of other versions (`versioned_docs/`, `docs/v1/`, …). */
  skipVersionFiltering?: boolean;
  /** Larger files are skipped; 2 MB by default. */
  maxFileBytes?: number;
  /** The ref being built ("v4.4.3", "svelte@5.56.10"), so that its own version folders are kept. */
  versionHint?: string;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

export const DOC_EXTENSIONS = ['.md', '.mdx', '.markdown', '.rst', '.txt', '.ipynb', '.adoc'] as const;
export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Splits a repository's files into the documentation to index and the rest, each skipped
 * file with its reason (for the job log). Order of the input is kept.
 */
export function selectDocFiles(files: readonly RepoFileInfo[], options: SelectOptions = {}): { selected: string[]; skipped: SkippedFile[] } {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const config = options.config ?? {};
  const folders = compact((config.folders ?? []).map(includeFolderMatcher));
  const excludeFolders = compact((config.excludeFolders ?? []).map((p) => withPattern(p, excludeFolderMatcher(p))));
  const excludeFiles = compact((config.excludeFiles ?? []).map((p) => withPattern(p, excludeFileMatcher(p))));
  const tree = describeTree(files);
  const versions: VersionContext = { children: tree.children, docCount: tree.docCount, hint: parseVersionHint(options.versionHint) };
  const selected: string[] = [];
  const skipped: SkippedFile[] = [];

  for (const f of files) {
    const path = f.path;
    const reason = ruleOut(f);
    if (reason) skipped.push({ path, reason });
    else selected.push(path);
  }
  return { selected, skipped };

  function ruleOut(f: RepoFileInfo): string | undefined {
    const path = f.path;
    if (!isDocFile(path)) return 'extension';
    if (!isSafePath(path)) return 'unsafe path';
    if (f.isSymlink) return 'symlink';
    if (f.size > maxBytes) return 'too large';
    const parts = path.split('/');
    const name = parts[parts.length - 1];
    const dirs = parts.slice(0, -1);
    const depths = folders.map((match) => match(path)).filter((d): d is number => d !== undefined);
    // Context7: root-level files are always included, whatever `folders` says.
    if (folders.length > 0 && dirs.length > 0 && depths.length === 0) return 'outside the configured folders';
    const explicitDepth = Math.max(0, ...depths);
    const folderRule = excludeFolders.find((r) => r.match(path));
    if (folderRule) return `excluded by excludeFolders "${folderRule.pattern}"`;
    const fileRule = excludeFiles.find((r) => r.match(path));
    if (fileRule) return `excluded by excludeFiles "${fileRule.pattern}"`;
    return defaultExclusion(dirs, name, explicitDepth);
  }

  /** Default exclusions, except in folders the config names explicitly (`folders: ["docs/legacy"]`). */
  function defaultExclusion(dirs: readonly string[], name: string, explicitDepth: number): string | undefined {
    const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
    if (explicitDepth > dirs.length) return undefined;
    const fileReason = kept(excludedFileReason(name, dirs.length === 0)) ?? translationFileReason(dirs.join('/'), name, tree.hasFile);
    if (fileReason) return fileReason;
    // Maintainers' pages in the folders the config names explicitly are kept; below them the
    // default applies (as for the others: `folders: ["docs"]` still leaves docs/internal/ out).
    const maintainers = kept(maintainersPageReason([...dirs.slice(explicitDepth), name].join('/')));
    if (maintainers) return maintainers;
    for (let i = explicitDepth; i < dirs.length; i++) {
      const reason =
        kept(excludedDirReason(dirs, i, ext)) ??
        translationDirReason(dirs, i, tree.hasDirLower) ??
        (options.skipVersionFiltering ? undefined : otherVersionReason(dirs, i, versions));
      if (reason) return reason;
    }
    return undefined;
  }

  /** A default exclusion the config switched off (`defaultExclusions: { navigation: false }`) is no reason. */
  function kept(reason: string | undefined): string | undefined {
    const kind = reason ? nonDocKind(reason) : undefined;
    return kind && config.defaultExclusions?.[kind] === false ? undefined : reason;
  }
}

/** Whether the path has one of the documentation extensions (any case). */
export function isDocFile(path: string): boolean {
  const lower = path.toLowerCase();
  return DOC_EXTENSIONS.some((e) => lower.endsWith(e) && lower.length > e.length && !lower.endsWith(`/${e}`));
}

/** Relative, forward-slash paths that stay inside the repository. */
export function isSafePath(path: string): boolean {
  if (path === '' || path.startsWith('/') || /^[a-zA-Z]:/.test(path) || /[\\\0]/.test(path)) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

interface TreeFacts {
  hasFile: (path: string) => boolean;
  hasDirLower: (lowerPath: string) => boolean;
  children: (dirPath: string) => readonly string[];
  docCount: (dirPath: string) => number;
}

/** Folder facts of the whole tree (not only doc files): `en` siblings and version folders need them. */
function describeTree(files: readonly RepoFileInfo[]): TreeFacts {
  const paths = new Set<string>();
  const dirsLower = new Set<string>();
  const children = new Map<string, Set<string>>();
  const docCounts = new Map<string, number>();
  for (const f of files) {
    paths.add(f.path);
    const parts = f.path.split('/');
    const doc = isDocFile(f.path);
    let parent = '';
    if (doc) docCounts.set('', (docCounts.get('') ?? 0) + 1);
    for (let i = 0; i < parts.length - 1; i++) {
      const dir = parent ? `${parent}/${parts[i]}` : parts[i];
      let set = children.get(parent);
      if (!set) children.set(parent, (set = new Set()));
      set.add(parts[i]);
      dirsLower.add(dir.toLowerCase());
      if (doc) docCounts.set(dir, (docCounts.get(dir) ?? 0) + 1);
      parent = dir;
    }
  }
  const childLists = new Map([...children].map(([k, v]) => [k, [...v]]));
  return {
    hasFile: (p) => paths.has(p),
    hasDirLower: (p) => dirsLower.has(p),
    children: (p) => childLists.get(p) ?? [],
    docCount: (p) => docCounts.get(p) ?? 0,
  };
}

function withPattern(pattern: string, match: ((path: string) => boolean) | undefined): { pattern: string; match: (path: string) => boolean } | undefined {
  return match ? { pattern, match } : undefined;
}

function compact<T>(list: readonly (T | undefined)[]): T[] {
  return list.filter((x): x is T => x !== undefined);
}
