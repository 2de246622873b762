#!/usr/bin/env node
/**
 * Installs the pinned documentation generators the website tests use (see
 * scripts/install/sitegen/generators.mjs) into ~/.cache/shelfmark/sitegen, once: a venv with Sphinx
 * and MkDocs Material from PyPI, and VitePress from npm. Re-running is a no-op (a stamp file
 * per install). Exits non-zero when something cannot be installed; the tests that need a
 * generator skip with a message naming this script when it is missing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generatorInstalls, NPM_PACKAGES, PYTHON_PACKAGES } from './sitegen/generators.mjs';

const { venv, npm } = generatorInstalls();
const log = (m) => process.stderr.write(`[sitegen] ${m}\n`);
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });

function installPython() {
  const stamp = path.join(venv, '.installed');
  if (fs.existsSync(stamp)) return;
  log(`installing ${PYTHON_PACKAGES.join(' ')} into ${venv}`);
  fs.rmSync(venv, { recursive: true, force: true });
  run('python3', ['-m', 'venv', venv]);
  run(path.join(venv, 'bin', 'pip'), ['install', '-q', '--disable-pip-version-check', ...PYTHON_PACKAGES]);
  fs.writeFileSync(stamp, PYTHON_PACKAGES.join('\n'));
}

function installNpm() {
  const stamp = path.join(npm, '.installed');
  if (fs.existsSync(stamp)) return;
  log(`installing ${NPM_PACKAGES.join(' ')} into ${npm}`);
  fs.rmSync(npm, { recursive: true, force: true });
  fs.mkdirSync(npm, { recursive: true });
  fs.writeFileSync(path.join(npm, 'package.json'), JSON.stringify({ name: 'shelfmark-sitegen', private: true, allowScripts: { esbuild: true } }, null, 2));
  run('npm', ['install', '--no-audit', '--no-fund', '--save-exact', ...NPM_PACKAGES], npm);
  fs.writeFileSync(stamp, NPM_PACKAGES.join('\n'));
}

let failed = false;
for (const [name, step] of [
  ['python generators', installPython],
  ['vitepress', installNpm],
]) {
  try {
    step();
  } catch (error) {
    failed = true;
    log(`${name}: ${error.message.split('\n')[0]} — the website-generator tests will skip`);
  }
}
process.exit(failed ? 1 : 0);
