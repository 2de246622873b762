/**
 * The files of the commit being built, readable by path: the seam through which include
 * resolution (and anything else that needs a second file of the same commit) reads blobs,
 * so parsers and resolvers never reach into nodegit.
 */
import type NodeGitTypes from 'nodegit';
import { readBlob, type RepoFile } from '../sources/git';
import { decodeUtf8, looksBinary } from '../discover/binary';

/** Read access to the text files of one commit. */
export interface CommitFiles {
  /** Whether a regular (non-symlink) file exists at this repository-relative path. */
  has(path: string): boolean;
  /** The file's text, or undefined when it is missing, a symlink, too big, binary or not UTF-8. */
  read(path: string): Promise<string | undefined>;
  /** Every regular file's path (for suffix look-ups of module-root paths). */
  paths(): readonly string[];
  /** Blob id of a path (content hash), for manifests that depend on included files. */
  oid(path: string): string | undefined;
}

/** CommitFiles over a nodegit commit; each blob is read at most once. */
export function commitFiles(commit: NodeGitTypes.Commit, files: RepoFile[], maxBytes: number): CommitFiles {
  const byPath = new Map(files.filter((f) => !f.isSymlink).map((f) => [f.path, f]));
  const cache = new Map<string, Promise<string | undefined>>();
  const list = [...byPath.keys()];
  return {
    has: (p) => byPath.has(p),
    oid: (p) => byPath.get(p)?.oid,
    paths: () => list,
    read(p) {
      const f = byPath.get(p);
      if (!f || f.size > maxBytes) return Promise.resolve(undefined);
      let pending = cache.get(p);
      if (!pending) {
        pending = readBlob(commit, p).then((buf) => (looksBinary(buf) ? undefined : decodeUtf8(buf)));
        cache.set(p, pending);
      }
      return pending;
    },
  };
}

/** CommitFiles over an in-memory map (tests, and callers that already hold the texts). */
export function memoryFiles(texts: Record<string, string>): CommitFiles {
  const list = Object.keys(texts);
  return {
    has: (p) => Object.hasOwn(texts, p),
    oid: (p) => (Object.hasOwn(texts, p) ? `mem:${p}:${texts[p].length}` : undefined),
    paths: () => list,
    read: (p) => Promise.resolve(Object.hasOwn(texts, p) ? texts[p] : undefined),
  };
}
