/** The commit a measurement was taken at (`abc1234+dirty` with local changes), for reports. */
import { execFileSync } from 'node:child_process';

export function gitRevision(cwd?: string): string | undefined {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  try {
    const head = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain') === '' ? head : `${head}+dirty`;
  } catch {
    return undefined;
  }
}
