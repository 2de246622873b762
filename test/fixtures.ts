/**
 * The project's shared fixtures (fixtures/ at the top level): a fixture repository's version
 * folders become the versions of a repository on the test Git server (createRepo).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RepoVersion } from './git-server';

export const FIXTURES_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures');

function readTree(dir: string, rel = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(files, readTree(dir, child));
    else if (e.isFile()) files[child] = fs.readFileSync(path.join(dir, child), 'utf8');
  }
  return files;
}

/** `acme__widgets` → its versions in MANIFEST order, each tagged with its version. */
export function fixtureRepoVersions(folder: string): RepoVersion[] {
  const manifest = fs
    .readFileSync(path.join(FIXTURES_DIR, 'MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'));
  const library = `/${folder.replace('__', '/')}`;
  return manifest.filter((c) => c[0] === library).map((c) => ({ files: readTree(path.join(FIXTURES_DIR, 'repos', folder, c[1])), tag: c[1] }));
}

export function fixtureFile(rel: string): string {
  return path.join(FIXTURES_DIR, rel);
}
