/**
 * What a model folder holds and which ONNX graph serves which side. The install step
 * (scripts/install/install-model.mjs) writes `model.onnx` (the int8-weight export, always) and, when
 * it could derive them, `document.onnx` (fp32, fused) and `query.onnx` (dynamic int8) listed
 * with their sha256 in `graphs.json`. A folder without `graphs.json` (an operator's own
 * model, or an install whose derivation failed) serves `model.onnx` for both sides.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DEFAULT_MODEL_NAME = 'all-MiniLM-L6-v2';

/** The files a model folder must hold. */
export const MODEL_FILES = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json'] as const;

/** The manifest of derived graphs in a model folder. */
export const GRAPHS_MANIFEST = 'graphs.json';

/** onnxruntime's graph optimisation at load: 'basic' for graphs optimised offline. */
export type GraphOptimization = 'basic' | 'all';

export interface GraphFile {
  /** Absolute path of the .onnx file. */
  file: string;
  /** First 12 hex digits of the file's sha256 (part of the model id). */
  hash: string;
  optimization: GraphOptimization;
}

export interface ModelGraphs {
  document: GraphFile;
  /** The same object as `document` when one graph serves both sides. */
  query: GraphFile;
  /** Why the folder's derived graphs are not used, when it has a manifest that does not check out. */
  problem?: string;
}

/** Where the install step puts the default model (outside the clone, like the nodegit build). */
export function defaultModelDir(env: NodeJS.ProcessEnv = process.env): string {
  const cacheRoot = env.SHELFMARK_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'shelfmark');
  return path.join(cacheRoot, 'models', DEFAULT_MODEL_NAME);
}

/** The files of `MODEL_FILES` missing from `dir` (empty when the model is usable). */
export function missingModelFiles(dir: string): string[] {
  return MODEL_FILES.filter((f) => !fs.existsSync(path.join(dir, f)));
}

interface ManifestEntry {
  file: string;
  sha256: string;
  optimization: GraphOptimization;
}

/**
 * The graphs to serve from `dir`: the manifest's document and query graphs when every file
 * is there with its recorded sha256, else `model.onnx` for both (with `problem` saying why,
 * when a manifest was there).
 */
export function readModelGraphs(dir: string): ModelGraphs {
  const manifestPath = path.join(dir, GRAPHS_MANIFEST);
  if (fs.existsSync(manifestPath)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
      const document = readEntry(dir, manifest.document);
      const query = readEntry(dir, manifest.query);
      return { document, query };
    } catch (error) {
      const single = readGraph(path.join(dir, 'model.onnx'), 'all');
      return { document: single, query: single, problem: `${GRAPHS_MANIFEST}: ${(error as Error).message}` };
    }
  }
  const single = readGraph(path.join(dir, 'model.onnx'), 'all');
  return { document: single, query: single };
}

function readEntry(dir: string, raw: unknown): GraphFile {
  const entry = raw as Partial<ManifestEntry> | undefined;
  if (!entry || typeof entry.file !== 'string' || typeof entry.sha256 !== 'string' || (entry.optimization !== 'basic' && entry.optimization !== 'all')) {
    throw new Error('an entry lacks file, sha256 or optimization');
  }
  const file = path.join(dir, path.basename(entry.file));
  if (!fs.existsSync(file)) throw new Error(`${entry.file} is missing`);
  const graph = readGraph(file, entry.optimization);
  if (graph.sha256 !== entry.sha256) throw new Error(`${entry.file} has sha256 ${graph.sha256}, expected ${entry.sha256}`);
  return graph;
}

function readGraph(file: string, optimization: GraphOptimization): GraphFile & { sha256: string } {
  const sha256 = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  return { file, hash: sha256.slice(0, 12), optimization, sha256 };
}
