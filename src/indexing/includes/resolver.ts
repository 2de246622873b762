/**
 * The shared state of one document's include expansion: where a target path points,
 * what has been read, cycles, depth and size limits, and the problems to record in the
 * job log. Conventions (mdbook.ts, sphinx.ts, ...) only parse their directives and ask this
 * for files.
 */
import path from 'node:path';
import type { CommitFiles } from '../pipeline/commit-files';
import { excludedFileReason } from '../discover/defaults';

/** Files a docs page includes that discovery leaves out by default stay out when included. */
const NOT_CONTENT = new Set(['changelog', 'licence', 'code of conduct', 'contributor file']);

export interface IncludeProblem {
  /** The document holding the directive. */
  path: string;
  /** The target as written. */
  target: string;
  reason: 'missing' | 'cycle' | 'too deep' | 'too large' | 'part missing' | 'remote' | 'unresolved';
}

/** Includes nest at most this deep (mdBook allows 10; books use 1–2). */
export const MAX_DEPTH = 8;

export class IncludeResolver {
  readonly problems: IncludeProblem[] = [];
  /** Every file that was included (the document's content depends on them). */
  readonly included = new Set<string>();
  private readonly stack: string[] = [];
  private bytes = 0;

  constructor(
    readonly files: CommitFiles,
    root: string,
    /** Expanded text beyond this many bytes is left as written (a guard against include bombs). */
    private readonly maxBytes: number,
  ) {
    this.stack.push(root);
  }

  /** The document whose text is being expanded now. */
  get current(): string {
    return this.stack[this.stack.length - 1];
  }

  problem(target: string, reason: IncludeProblem['reason']): void {
    this.problems.push({ path: this.current, target, reason });
  }

  /**
   * Finds a target: relative to the including file, then each base folder, then as a
   * module-root path (the one file in the commit whose path ends with it).
   */
  locate(target: string, bases: string[] = []): string | undefined {
    const clean = target.trim().replace(/^\.\//, '');
    if (clean === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(clean)) return undefined;
    const candidates = clean.startsWith('/')
      ? [...bases.map((b) => path.posix.join(b, clean)), clean.slice(1)]
      : [path.posix.join(path.posix.dirname(this.current), clean), ...bases.map((b) => path.posix.join(b, clean)), clean];
    for (const c of candidates) {
      const n = path.posix.normalize(c).replace(/^\/+/, '');
      if (!n.startsWith('..') && this.files.has(n)) return n;
    }
    const tail = clean.replace(/^(?:\.\.?\/)+/, '').replace(/^\/+/, '');
    if (tail.includes('/') || tail.includes('.')) {
      const hits = this.files.paths().filter((p) => p === tail || p.endsWith(`/${tail}`));
      if (hits.length === 1) return hits[0];
    }
    return undefined;
  }

  /**
   * Reads a located target, or records why it cannot be: missing, a cycle, too deep, or
   * over the size budget. `target` is the text as written, for the log.
   */
  async load(target: string, resolved: string | undefined): Promise<string | undefined> {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target.trim())) {
      this.problem(target, 'remote');
      return undefined;
    }
    if (!resolved) {
      this.problem(target, 'missing');
      return undefined;
    }
    // A page that only includes the changelog or the licence (`--8<-- "CHANGELOG.md"`) adds
    // what discovery excludes by default: the directive expands to nothing.
    const reason = excludedFileReason(path.posix.basename(resolved), !resolved.includes('/'));
    if (reason && NOT_CONTENT.has(reason)) return '';
    if (this.stack.includes(resolved)) {
      this.problem(target, 'cycle');
      return undefined;
    }
    if (this.stack.length > MAX_DEPTH) {
      this.problem(target, 'too deep');
      return undefined;
    }
    const text = await this.files.read(resolved);
    if (text === undefined) {
      this.problem(target, 'missing');
      return undefined;
    }
    if (this.bytes + text.length > this.maxBytes) {
      this.problem(target, 'too large');
      return undefined;
    }
    this.bytes += text.length;
    this.included.add(resolved);
    return text.replace(/\r\n?/g, '\n');
  }

  /** Runs `fn` with `file` as the current document (nested includes resolve from it). */
  async within<T>(file: string, fn: () => Promise<T>): Promise<T> {
    this.stack.push(file);
    try {
      return await fn();
    } finally {
      this.stack.pop();
    }
  }
}

/** Replaces each match of a global regex with the awaited result of `fn` (in order, one at a time). */
export async function replaceAsync(text: string, re: RegExp, fn: (m: RegExpExecArray) => Promise<string>): Promise<string> {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(re)) {
    out += text.slice(last, m.index) + (await fn(m as RegExpExecArray));
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}

/** Included text placed at a directive's indentation: trailing newlines dropped, every non-blank line indented. */
export function indented(text: string, indent: string): string {
  return text
    .replace(/\n+$/, '')
    .split('\n')
    .map((l) => (l ? indent + l : l))
    .join('\n');
}

/** Code-fence language for a file by its extension (what the docs' renderers infer). */
export function languageOf(file: string): string {
  const ext = path.posix.extname(file).slice(1).toLowerCase();
  const base = path.posix.basename(file).toLowerCase();
  if (base === 'dockerfile') return 'dockerfile';
  if (base === 'makefile') return 'makefile';
  return LANGUAGES[ext] ?? ext;
}

const LANGUAGES: Record<string, string> = {
  rs: 'rust',
  py: 'python',
  pyi: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  ts: 'typescript',
  tsx: 'tsx',
  rb: 'ruby',
  kt: 'kotlin',
  kts: 'kotlin',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  yml: 'yaml',
  yaml: 'yaml',
  md: 'markdown',
  rst: 'rst',
  adoc: 'asciidoc',
  cs: 'csharp',
  hs: 'haskell',
  ex: 'elixir',
  exs: 'elixir',
  h: 'c',
  hpp: 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  txt: 'text',
  ps1: 'powershell',
  psm1: 'powershell',
  tf: 'hcl',
  gradle: 'groovy',
  vue: 'vue',
  svelte: 'svelte',
  jl: 'julia',
  pl: 'perl',
  m: 'objectivec',
};
