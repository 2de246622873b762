/**
 * Version filtering: pages that document another version of the library than the one being
 * built. Docusaurus keeps them in `versioned_docs/`; other sites in folders named for the
 * version (`docs/v1/`, `2.x/`, `4x/`, `version-1.2/`) or in a twin of the docs folder
 * (`docs-v3/` beside `docs/`).
 */

/** Folders that only ever hold other versions' pages. */
const VERSIONED_CONTAINERS = new Set([
  'versioned_docs',
  'versioned_sidebars',
  'versioned-docs',
  'versioned-sidebars',
  'old-versions',
  'older-versions',
  'other-versions',
]);
/** Names that may carry a version suffix (`docs-v3`, `api_v2`) or prefix (`v3-docs`). */
const DOC_BASES = new Set(['doc', 'docs', 'documentation', 'api', 'guide', 'guides', 'reference', 'site', 'website', 'content', 'book', 'manual']);

/** A version folder: its version numbers and, for `docs-v3`, the unversioned name (`docs`). */
export interface VersionDir {
  numbers: number[];
  base?: string;
}

const NUM = String.raw`(\d+(?:\.\d+)*)`;
const PLAIN_VERSION_DIR = [
  new RegExp(`^v${NUM}(?:\\.x)?$`, 'i'), // v1, v2.3, v2.x
  new RegExp(`^${NUM}\\.x$`, 'i'), // 1.x, 2.0.x
  /^(\d+)x$/i, // 4x (expressjs.com)
  /^(\d+\.\d+(?:\.\d+)?)$/, // 2.0, 1.2.3
  new RegExp(`^version[-_]?${NUM}(?:\\.x)?$`, 'i'), // version-1.2 (Docusaurus)
];

/** Reads a folder name as a version folder; undefined when it is not one. */
export function parseVersionDir(name: string): VersionDir | undefined {
  for (const re of PLAIN_VERSION_DIR) {
    const m = re.exec(name);
    if (m) return { numbers: toNumbers(m[1]) };
  }
  const suffixed = new RegExp(`^([a-z]+)[-_]v?${NUM}(?:\\.x)?$`, 'i').exec(name);
  if (suffixed && DOC_BASES.has(suffixed[1].toLowerCase())) return { numbers: toNumbers(suffixed[2]), base: suffixed[1].toLowerCase() };
  const prefixed = /^v(\d+(?:\.\d+)*)[-_]([a-z]+)$/i.exec(name);
  if (prefixed && DOC_BASES.has(prefixed[2].toLowerCase())) return { numbers: toNumbers(prefixed[1]), base: prefixed[2].toLowerCase() };
  return undefined;
}

/** The version numbers of the ref being built ("v4.4.3", "svelte@5.56.10", "rel_2_0_52"); undefined for "main". */
export function parseVersionHint(ref: string | undefined): number[] | undefined {
  const m = ref ? /(\d+)(?:[._](\d+))?(?:[._](\d+))?/.exec(ref) : null;
  return m
    ? m
        .slice(1)
        .filter((x): x is string => x !== undefined)
        .map(Number)
    : undefined;
}

/** What the version filter needs to know about the repository's folders. */
export interface VersionContext {
  /** Names of the sub-folders of a folder ('' for the root). */
  children: (dirPath: string) => readonly string[];
  /** How many documentation files a folder holds, at any depth. */
  docCount: (dirPath: string) => number;
  /** Version numbers of the ref being built, when known. */
  hint?: number[];
}

/** Why the folder `dirs[i]` of a file holds another version's pages, or undefined. */
export function otherVersionReason(dirs: readonly string[], i: number, ctx: VersionContext): string | undefined {
  const d = dirs[i];
  if (VERSIONED_CONTAINERS.has(d.toLowerCase())) return `documentation of another version (in ${d}/)`;
  const own = parseVersionDir(d);
  if (!own) return undefined;
  const parent = dirs.slice(0, i).join('/');
  const siblings = ctx.children(parent);
  const reason = `documentation of another version (${d}/)`;
  // `docs-v3/` beside `docs/`: the unversioned folder is the current one.
  if (own.base !== undefined && siblings.some((s) => s.toLowerCase() === own.base)) return reason;
  const family = siblings
    .map((name) => ({ name, v: parseVersionDir(name) }))
    .filter((s): s is { name: string; v: VersionDir } => s.v !== undefined && s.v.base === own.base);
  const current = pickCurrent(family, ctx.hint);
  if (current !== undefined && current !== d) return reason;
  if (family.length > 1) return undefined;
  // A lone version folder: older than the version being built, or a small leftover beside
  // the unversioned docs (`docs/v1/` next to the current pages), is another version.
  if (ctx.hint) return own.numbers[0] < ctx.hint[0] ? reason : undefined;
  const path = parent ? `${parent}/${d}` : d;
  const inside = ctx.docCount(path);
  const beside = ctx.docCount(parent) - inside;
  return beside > inside ? reason : undefined;
}

/** The version folder that documents the version being built: the best match of the hint, else the newest. */
function pickCurrent(family: readonly { name: string; v: VersionDir }[], hint: number[] | undefined): string | undefined {
  let best: { name: string; v: VersionDir; score: number } | undefined;
  for (const f of family) {
    const score = hint ? matchingPrefix(f.v.numbers, hint) : 0;
    if (!best || score > best.score || (score === best.score && compareVersions(f.v.numbers, best.v.numbers) > 0)) best = { ...f, score };
  }
  return best?.name;
}

function matchingPrefix(a: readonly number[], b: readonly number[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function toNumbers(s: string): number[] {
  return s.split('.').map(Number);
}
