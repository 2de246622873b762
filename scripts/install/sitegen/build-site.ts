/**
 * Builds a documentation site with a real generator (Sphinx, MkDocs Material, VitePress),
 * once: the output is cached under ~/.cache/shelfmark/sitegen/sites/ keyed by the pinned
 * generator versions and the input files, so tests and benches reuse it. The generators come
 * from scripts/install/install-site-generators.mjs (run by scripts/install/ensure-install.sh).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { generatorInstalls, sitegenCache } from './generators.mjs';

export type Generator = 'sphinx' | 'mkdocs' | 'vitepress';
export const GENERATORS: Generator[] = ['sphinx', 'mkdocs', 'vitepress'];

/** Why a generator cannot run here (its install is missing), or undefined when it can. */
export function generatorMissing(generator: Generator): string | undefined {
  const { venv, npm } = generatorInstalls();
  const stamp = generator === 'vitepress' ? path.join(npm, '.installed') : path.join(venv, '.installed');
  return fs.existsSync(stamp)
    ? undefined
    : `${generator} is not installed (run node scripts/install/install-site-generators.mjs, which scripts/install/ensure-install.sh runs)`;
}

/** Hash of every file under `dir` (relative path and bytes), for the cache key. */
function hashTree(dir: string): string {
  const h = crypto.createHash('sha256');
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      if (name === 'node_modules' || name === 'dist' || name === 'cache') continue;
      const p = path.join(d, name);
      const stat = fs.statSync(p);
      if (stat.isDirectory()) walk(p);
      else h.update(path.relative(dir, p)).update('\0').update(fs.readFileSync(p)).update('\0');
    }
  };
  walk(dir);
  return h.digest('hex').slice(0, 16);
}

/**
 * The folder of the built site for `inputDir` (Sphinx: conf.py + sources; MkDocs: mkdocs.yml
 * + docs/; VitePress: .vitepress/config + pages). Builds it when not cached; throws with the
 * generator's output when the build fails.
 */
export function buildSite(generator: Generator, inputDir: string): { dir: string; cached: boolean } {
  const missing = generatorMissing(generator);
  if (missing) throw new Error(missing);
  const { venv, npm, toolsKey } = generatorInstalls();
  const out = path.join(sitegenCache(), 'sites', `${generator}-${toolsKey}-${hashTree(inputDir)}`);
  if (fs.existsSync(path.join(out, '.built'))) return { dir: out, cached: true };
  const tmp = `${out}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const run = (cmd: string, args: string[], cwd?: string) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (generator === 'sphinx') {
    run(path.join(venv, 'bin', 'sphinx-build'), ['-q', '-b', 'html', '-d', `${tmp}-doctrees`, inputDir, tmp]);
    fs.rmSync(`${tmp}-doctrees`, { recursive: true, force: true });
  } else if (generator === 'mkdocs') {
    run(path.join(venv, 'bin', 'mkdocs'), ['build', '-q', '-f', path.join(inputDir, 'mkdocs.yml'), '-d', tmp]);
  } else {
    // VitePress resolves its theme from the project's node_modules: build inside the install.
    const work = path.join(npm, 'work', path.basename(tmp));
    fs.rmSync(work, { recursive: true, force: true });
    fs.cpSync(inputDir, work, { recursive: true });
    run(process.execPath, [path.join(npm, 'node_modules', 'vitepress', 'bin', 'vitepress.js'), 'build', work, '--outDir', tmp], npm);
    fs.rmSync(work, { recursive: true, force: true });
  }
  fs.writeFileSync(path.join(tmp, '.built'), new Date().toISOString());
  try {
    fs.renameSync(tmp, out);
  } catch {
    // Another process built it first: keep theirs.
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return { dir: out, cached: false };
}
