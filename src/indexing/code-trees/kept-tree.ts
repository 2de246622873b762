/**
 * The code of an indexed Git version, kept on disk after its build so the code tools
 * (search, definitions, references, outline, read) answer over the exact commit the docs
 * came from. One folder per library copy and commit, `<CODE_DIR>/<hash of the key>/<commit>/`:
 * `tree.json` (the file table: path, offset, length) and `content.bin` (the text files one
 * after the other). Versions at the same commit share it; commits no version serves any more
 * are removed after each build, and with the library. (Folders below are under CODE_DIR, default `<codeDir>/code`.)
 *
 * Why a snapshot of our own and not the clone: clones are full bare repositories (nodegit
 * cannot fetch shallow), with the whole history, and are deleted after the build; the
 * snapshot is the one tree, text only, under a size cap, and one file read makes it
 * searchable (a search scans one buffer instead of inflating thousands of blobs).
 * Like uploaded archives (`<dataDir>/archives`), it lives in the data folder: API instances
 * that answer code tools must share it with the workers that build.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** One kept file: where its bytes lie in content.bin. */
export interface KeptFile {
  path: string;
  offset: number;
  length: number;
}

/** `tree.json`: what was kept of a commit, and what was left out and why. */
export interface KeptTreeIndex {
  commit: string;
  keptAt: string;
  files: KeptFile[];
  totalBytes: number;
  /** Files not kept: binary or not UTF-8, over the per-file cap, beyond the version's cap, symlinks. */
  omitted: { binary: number; tooLarge: number; overCap: number; symlinks: number };
}

export interface TreeFileSource {
  path: string;
  size: number;
  isSymlink: boolean;
}

export interface KeepTreeInput {
  codeDir: string;
  libraryKey: string;
  commit: string;
  files: readonly TreeFileSource[];
  read(path: string): Promise<Buffer>;
  limits: { treeMaxBytes: number; fileMaxBytes: number };
}

/** The folder of a library copy's kept trees (its key hashed: keys hold `/`, `~` and team ids). */
export function libraryCodeDir(codeDir: string, libraryKey: string): string {
  return path.join(codeDir, crypto.createHash('sha256').update(libraryKey).digest('hex').slice(0, 32));
}

export function keptTreeDir(codeDir: string, libraryKey: string, commit: string): string {
  if (!/^[0-9a-f]{7,64}$/.test(commit)) throw new Error(`not a commit id: ${commit}`);
  return path.join(libraryCodeDir(codeDir, libraryKey), commit);
}

export function hasKeptTree(codeDir: string, libraryKey: string, commit: string): boolean {
  return fs.existsSync(path.join(keptTreeDir(codeDir, libraryKey, commit), 'tree.json'));
}

/** Generated, vendored and lock files go last when a version's cap leaves no room for all. */
const LOW_PRIORITY =
  /(^|\/)(node_modules|vendor|third_party|dist|build|out|coverage|__snapshots__)\/|\.min\.(js|css)$|\.map$|(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|poetry\.lock|uv\.lock|go\.sum)$/;

/** Which files a tree keeps, in the order they are written (pure). */
export function planKeptFiles(
  files: readonly TreeFileSource[],
  limits: KeepTreeInput['limits'],
): { chosen: TreeFileSource[]; tooLarge: number; overCap: number; symlinks: number } {
  const symlinks = files.filter((f) => f.isSymlink).length;
  const small = files.filter((f) => !f.isSymlink && f.size <= limits.fileMaxBytes);
  const tooLarge = files.length - symlinks - small.length;
  const ordered = [...small].sort(
    (a, b) => Number(LOW_PRIORITY.test(a.path)) - Number(LOW_PRIORITY.test(b.path)) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  const chosen: TreeFileSource[] = [];
  let total = 0;
  for (const f of ordered) {
    if (total + f.size > limits.treeMaxBytes) continue;
    chosen.push(f);
    total += f.size;
  }
  chosen.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { chosen, tooLarge, overCap: small.length - chosen.length, symlinks };
}

function isText(buf: Buffer): boolean {
  if (buf.subarray(0, 8000).includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the kept tree of `commit` unless it exists (written to a temporary folder, then
 * renamed: a reader never sees half a tree). Returns its index, or undefined when the cap is 0.
 */
export async function keepTree(input: KeepTreeInput): Promise<KeptTreeIndex | undefined> {
  if (input.limits.treeMaxBytes <= 0) return undefined;
  const target = keptTreeDir(input.codeDir, input.libraryKey, input.commit);
  if (fs.existsSync(path.join(target, 'tree.json'))) return JSON.parse(fs.readFileSync(path.join(target, 'tree.json'), 'utf8')) as KeptTreeIndex;
  const plan = planKeptFiles(input.files, input.limits);
  const tmp = `${target}.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  fs.mkdirSync(tmp, { recursive: true });
  try {
    const fd = fs.openSync(path.join(tmp, 'content.bin'), 'w');
    const kept: KeptFile[] = [];
    let offset = 0;
    let binary = 0;
    try {
      for (const f of plan.chosen) {
        const buf = await input.read(f.path);
        if (!isText(buf)) {
          binary++;
          continue;
        }
        fs.writeSync(fd, buf);
        kept.push({ path: f.path, offset, length: buf.length });
        offset += buf.length;
      }
    } finally {
      fs.closeSync(fd);
    }
    const index: KeptTreeIndex = {
      commit: input.commit,
      keptAt: new Date().toISOString(),
      files: kept,
      totalBytes: offset,
      omitted: { binary, tooLarge: plan.tooLarge, overCap: plan.overCap, symlinks: plan.symlinks },
    };
    fs.writeFileSync(path.join(tmp, 'tree.json'), JSON.stringify(index));
    try {
      fs.renameSync(tmp, target);
    } catch (error) {
      // Another build of the same commit got there first: its tree is the same.
      if (!fs.existsSync(path.join(target, 'tree.json'))) throw error;
    }
    return index;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Removes the kept trees of a library copy whose commits no version serves (and leftovers of crashed writes). */
export function pruneKeptTrees(codeDir: string, libraryKey: string, servedCommits: readonly string[]): string[] {
  const dir = libraryCodeDir(codeDir, libraryKey);
  if (!fs.existsSync(dir)) return [];
  const keep = new Set(servedCommits);
  const removed: string[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (keep.has(name)) continue;
    // A temporary folder of a write still running is less than an hour old: left alone.
    if (name.includes('.tmp-') && Date.now() - fs.statSync(path.join(dir, name)).mtimeMs < 3_600_000) continue;
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** Removes every kept tree of a library copy (with the library). */
export function deleteKeptTrees(codeDir: string, libraryKey: string): void {
  fs.rmSync(libraryCodeDir(codeDir, libraryKey), { recursive: true, force: true });
}
