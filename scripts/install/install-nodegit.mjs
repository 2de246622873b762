#!/usr/bin/env node
// Installs nodegit's native build without compiling it twice on one machine.
//
// npm 11 skips dependencies' install scripts unless allowed, and we deliberately do not
// allow nodegit's: its own script always tries a prebuilt download first (futile here) and
// recompiles libgit2 on every fresh clone (4-12 minutes on 2 cores). Instead this script,
// run as the project's postinstall, restores `build/Release/nodegit.node` from a cache
// outside the clone, keyed by nodegit version, Node ABI, platform and arch, and only
// compiles (then fills the cache) when the cache has no matching build.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const nodegitDir = path.join(root, 'node_modules', 'nodegit');
const log = (msg) => console.log(`[install-nodegit] ${msg}`);

if (!fs.existsSync(path.join(nodegitDir, 'package.json'))) {
  log('nodegit is not installed (yet); nothing to do.');
  process.exit(0);
}
const version = JSON.parse(fs.readFileSync(path.join(nodegitDir, 'package.json'), 'utf8')).version;
const key = `${version}-node-abi${process.versions.modules}-${process.platform}-${process.arch}`;
const cacheRoot = process.env.SHELFMARK_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'shelfmark');
const cacheDir = path.join(cacheRoot, 'nodegit', key);
const builtFile = path.join(nodegitDir, 'build', 'Release', 'nodegit.node');
const cachedFile = path.join(cacheDir, 'nodegit.node');

function loads() {
  const result = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(nodegitDir)}).Repository`], {
    stdio: 'pipe',
  });
  return result.status === 0;
}

if (fs.existsSync(builtFile) && loads()) {
  log(`nodegit ${version} already built and loads.`);
  process.exit(0);
}

if (fs.existsSync(cachedFile)) {
  fs.mkdirSync(path.dirname(builtFile), { recursive: true });
  fs.copyFileSync(cachedFile, builtFile);
  if (loads()) {
    log(`restored nodegit ${version} from cache ${cacheDir}`);
    process.exit(0);
  }
  log(`cached build at ${cacheDir} does not load; rebuilding.`);
}

// One compile at a time per machine: a second install (another clone, or `npm install
// <pkg>` while the first build runs) waits for the first and then restores from the cache.
const lockDir = path.join(cacheRoot, 'nodegit', `${key}.lock`);
fs.mkdirSync(path.dirname(lockDir), { recursive: true });
if (!acquireLock()) {
  log(`another nodegit build is running (${lockDir}); waiting for it...`);
  while (!acquireLock()) await new Promise((r) => setTimeout(r, 2000));
  if (fs.existsSync(cachedFile)) {
    fs.mkdirSync(path.dirname(builtFile), { recursive: true });
    fs.copyFileSync(cachedFile, builtFile);
    if (loads()) {
      releaseLock();
      log(`restored nodegit ${version} from cache ${cacheDir}`);
      process.exit(0);
    }
  }
}
process.on('exit', releaseLock);

ensureDebianPackages(['libssl-dev', 'libkrb5-dev']);

log(`compiling nodegit ${version} from source (several minutes on 2 cores)...`);
const started = Date.now();
const env = { ...process.env, BUILD_ONLY: '1', JOBS: process.env.JOBS ?? String(os.cpus().length) };
// node-gyp would download Node's headers (no network for that here); use the system's.
if (!env.npm_config_nodedir && fs.existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';
for (const step of ['lifecycleScripts/preinstall.js', 'lifecycleScripts/install.js']) {
  const run = spawnSync(process.execPath, [step], { cwd: nodegitDir, env, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`[install-nodegit] nodegit ${step} failed (exit ${run.status}).`);
    console.error('[install-nodegit] It needs a C/C++ toolchain, python3, libssl-dev and libkrb5-dev.');
    process.exit(1);
  }
}
if (!loads()) {
  console.error('[install-nodegit] nodegit compiled but does not load; see the output above.');
  process.exit(1);
}
fs.mkdirSync(cacheDir, { recursive: true });
const tmp = `${cachedFile}.${process.pid}.tmp`;
fs.copyFileSync(builtFile, tmp);
fs.renameSync(tmp, cachedFile);
log(`built in ${Math.round((Date.now() - started) / 1000)} s; cached at ${cacheDir}`);

function ensureDebianPackages(names) {
  const missing = names.filter((name) => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax, not a template
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { stdio: 'pipe' });
    return r.status !== 0 || !String(r.stdout).includes('install ok installed');
  });
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'pipe' }).status === 0;
  if (!isRoot || !hasApt) {
    console.error(
      `[install-nodegit] missing system packages: ${missing.join(' ')}. Install them (e.g. sudo apt-get install ${missing.join(' ')}) and run npm install again.`,
    );
    process.exit(1);
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

function acquireLock() {
  try {
    fs.mkdirSync(lockDir);
    fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
    return true;
  } catch {
    // A lock left by a dead process is taken over.
    try {
      const pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
      process.kill(pid, 0);
      return false;
    } catch {
      fs.rmSync(lockDir, { recursive: true, force: true });
      return false;
    }
  }
}

function releaseLock() {
  try {
    if (fs.readFileSync(path.join(lockDir, 'pid'), 'utf8') === String(process.pid)) fs.rmSync(lockDir, { recursive: true, force: true });
  } catch {
    /* not ours */
  }
}
