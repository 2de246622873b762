/**
 * Writes folders of files as the commits of a bare Git repository, with the `git` command:
 * the corpus loader (one commit per version, tagged) and the first-run demo library (one
 * commit of the checkout's docs) build their local repositories this way, so they go through
 * the same pipeline as any repository a user adds.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SnapshotCommit {
  message: string;
  /** Fills the (emptied) work tree with this commit's files. */
  fill(work: string): void;
  /** A tag for this commit. */
  tag?: string;
}

/** Writes `commits` in order as the history of a bare repository at `bare` (replaced). */
export function writeBareRepo(bare: string, commits: SnapshotCommit[], author = 'shelfmark@localhost'): void {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-repo-'));
  const env = { ...process.env, GIT_AUTHOR_NAME: 'shelfmark', GIT_AUTHOR_EMAIL: author, GIT_COMMITTER_NAME: 'shelfmark', GIT_COMMITTER_EMAIL: author };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: work, env, stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  try {
    git('init', '-q', '-b', 'main');
    for (const c of commits) {
      for (const e of fs.readdirSync(work)) if (e !== '.git') fs.rmSync(path.join(work, e), { recursive: true, force: true });
      c.fill(work);
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', c.message);
      if (c.tag) git('tag', c.tag);
    }
    // Cloned beside the target, then moved into place: two writers of one repository (two
    // processes giving an empty catalogue the demo library on one data directory) each
    // leave a whole repository, never one's clone into the other's half-written directory.
    fs.mkdirSync(path.dirname(bare), { recursive: true });
    const staging = `${bare}.tmp-${process.pid}-${path.basename(work)}`;
    execFileSync('git', ['clone', '-q', '--bare', work, staging], { stdio: 'pipe' });
    fs.rmSync(bare, { recursive: true, force: true });
    try {
      fs.renameSync(staging, bare);
    } catch (error) {
      fs.rmSync(staging, { recursive: true, force: true });
      // Another writer's repository took the place first: it is in place, whole.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
