/**
 * The documentation generators the website tests build real sites with, pinned, and where
 * their installs live: a Python venv (Sphinx, MkDocs + Material) and an npm folder
 * (VitePress) under ~/.cache/shelfmark/sitegen/, keyed by the pinned versions so a version
 * change installs beside the old one instead of mutating it.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

export const PYTHON_PACKAGES = ['sphinx==9.0.4', 'sphinx-design==0.8.0', 'mkdocs==1.6.1', 'mkdocs-material==9.8.1'];
export const NPM_PACKAGES = ['vitepress@1.6.4'];

const key = (parts) => crypto.createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 12);

export function sitegenCache() {
  return process.env.SHELFMARK_SITEGEN_DIR ?? path.join(os.homedir(), '.cache', 'shelfmark', 'sitegen');
}

/** Folders of the two installs and the key of the whole toolset (part of every built site's cache key). */
export function generatorInstalls() {
  const root = sitegenCache();
  return {
    venv: path.join(root, `py-${key(PYTHON_PACKAGES)}`),
    npm: path.join(root, `npm-${key(NPM_PACKAGES)}`),
    toolsKey: key([...PYTHON_PACKAGES, ...NPM_PACKAGES]),
  };
}
