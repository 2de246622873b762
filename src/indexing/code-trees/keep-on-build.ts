/**
 * The build's hook that keeps a Git version's code (kept-tree.ts): called by the Git source
 * after a build of a commit (also when the commit was already served), it writes the tree
 * unless kept, then removes the trees of commits no version of the library serves any more.
 * Best effort: keeping the code never fails the docs build; the log says what happened.
 */
import { hasKeptTree, keepTree, pruneKeptTrees, type TreeFileSource } from './kept-tree';

export interface KeepCodePorts {
  codeDir: string;
  limits: { treeMaxBytes: number; fileMaxBytes: number };
  /** The commits the library's versions serve now (read fresh, after the publish). */
  servedCommits(): Promise<string[]>;
  log(level: 'info' | 'warn', message: string): void;
}

export async function keepCodeOfBuild(
  ports: KeepCodePorts,
  libraryKey: string,
  commit: string,
  files: readonly TreeFileSource[],
  read: (path: string) => Promise<Buffer>,
): Promise<void> {
  if (ports.limits.treeMaxBytes <= 0) return;
  try {
    const started = Date.now();
    const existed = hasKeptTree(ports.codeDir, libraryKey, commit);
    const index = await keepTree({ codeDir: ports.codeDir, libraryKey, commit, files, read, limits: ports.limits });
    if (index && !existed) {
      const o = index.omitted;
      const left = o.binary + o.tooLarge + o.overCap;
      ports.log(
        'info',
        `kept the code of ${commit.slice(0, 12)} for the code tools: ${index.files.length} text files, ${(index.totalBytes / 1048576).toFixed(1)} MB in ${Date.now() - started} ms${left > 0 ? ` (left out: ${o.binary} binary, ${o.tooLarge} over the file cap, ${o.overCap} over the version cap)` : ''}`,
      );
    }
    const served = new Set(await ports.servedCommits());
    served.add(commit);
    const removed = pruneKeptTrees(ports.codeDir, libraryKey, [...served]);
    if (removed.length > 0) ports.log('info', `removed the kept code of ${removed.length} commit(s) no version serves`);
  } catch (error) {
    ports.log(
      'warn',
      `keeping the code of ${commit.slice(0, 12)} failed (${(error as Error).message}); the code tools will not answer for this version until the next build`,
    );
  }
}
