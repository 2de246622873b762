/**
 * First run: with an empty catalogue, Shelfmark indexes its own documentation (README.md and
 * docs/ of its own checkout) as the library /shelfmark/shelfmark, so the playground, the API
 * and MCP answer at once, without network access. The files become a one-commit Git
 * repository under the data folder, added through the same pipeline as a user's
 * POST /v2/add/repo/github (as `npm run load` does). SHELFMARK_DEMO_LIBRARY=off turns it off;
 * the test harness turns it off for every test that does not ask for it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Ports } from '../ports';
import { addRepository } from './add-repo';
import { writeBareRepo } from '../util/git-snapshot';

export const DEMO_LIBRARY_ID = '/shelfmark/shelfmark';

export type DemoOutcome = { added: true; libraryName: string } | { added: false; reason: 'disabled' | 'catalogue_not_empty' | 'no_docs' };

/** The documentation files of a checkout: README.md and Markdown under docs/ (relative paths). */
export function demoFiles(root: string): string[] {
  const files: string[] = [];
  if (fs.existsSync(path.join(root, 'README.md'))) files.push('README.md');
  const walk = (rel: string) => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const child = path.posix.join(rel, e.name);
      if (e.isDirectory()) walk(child);
      else if (e.isFile() && /\.(md|mdx)$/i.test(e.name)) files.push(child);
    }
  };
  walk('docs');
  return files.sort();
}

/** Writes `files` of `root` as the single commit of a bare repository at `bare` (replaced). */
function buildRepo(root: string, files: string[], bare: string): void {
  writeBareRepo(
    bare,
    [
      {
        message: 'Shelfmark documentation (demo library)',
        fill: (work) => {
          for (const f of files) {
            fs.mkdirSync(path.dirname(path.join(work, f)), { recursive: true });
            fs.copyFileSync(path.join(root, f), path.join(work, f));
          }
        },
      },
    ],
    'demo@shelfmark',
  );
}

/** What `indexDemoLibrary` reaches (ports.ts). */
export type IndexDemoLibraryPorts = Pick<
  Ports,
  'config' | 'credentials' | 'jobs' | 'libraries' | 'log' | 'manifests' | 'pokeWorker' | 'policies' | 'snippets' | 'teams'
>;

/**
 * Adds the demo library when the catalogue is empty (and the demo is on). Waits for its
 * build; callers run it in the background after the server listens.
 */
export async function indexDemoLibrary(services: IndexDemoLibraryPorts, options: { root: string; waitMs?: number }): Promise<DemoOutcome> {
  if (!services.config.demoLibrary) return { added: false, reason: 'disabled' };
  if (await services.libraries.any()) return { added: false, reason: 'catalogue_not_empty' };
  const files = demoFiles(options.root);
  if (files.length === 0) return { added: false, reason: 'no_docs' };
  const gitRoot = path.join(services.config.dataDir, 'demo-git');
  buildRepo(options.root, files, path.join(gitRoot, 'shelfmark', 'shelfmark.git'));
  const result = await addRepository(
    services,
    { kind: 'service' },
    'github',
    { docsRepoUrl: `file://${gitRoot}${DEMO_LIBRARY_ID}` },
    { bases: { github: `file://${gitRoot}` }, waitMs: options.waitMs ?? 10 * 60 * 1000 },
  );
  return { added: true, libraryName: result.libraryName };
}
