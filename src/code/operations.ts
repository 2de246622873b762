/**
 * The code tools' operations over one loaded tree, run on the code threads
 * (code-workers.ts): search, a symbol's definitions (files that name it, then their
 * outlines), its references (whole-identifier matches, the declaring lines marked), and
 * the files under a path. Each takes the request's deadline and a result limit.
 */
import { Minimatch } from 'minimatch';
import type { CodeThreads } from './code-workers';
import type { LoadedTree } from './tree-cache';
import type { ScanRequest, ScanResult } from './scan';
import { languageOfPath, symbolMatches, type CodeSymbol } from './symbols';

export interface CodeMatch {
  path: string;
  line: number;
  column: number;
  text: string;
  /** references: whether this line declares the symbol. */
  kind?: 'definition' | 'reference';
}

export interface FoundSymbol extends CodeSymbol {
  path: string;
}

type Stop = 'limit' | 'deadline' | null;

/** At most this many files are parsed for one definition or references question. */
const MAX_PARSED_FILES = 300;

/** Indices of the files a `path` scope names: a folder or file prefix, or a glob (`**\/*.ts`, `*.py`; `*`, `**`, `?`, `[...]`). */
export function filesUnder(tree: LoadedTree, scope: string | undefined): number[] {
  const all = tree.index.files;
  if (!scope) return all.map((_, i) => i);
  const clean = scope.replace(/^\.?\/+/, '');
  if (/[*?[\]{}]/.test(clean)) {
    const base = !clean.includes('/');
    // Compiled once; no braces (18 pairs of {a,b} expand to 262,144 patterns) and no extglobs.
    const glob = new Minimatch(clean, { dot: true, matchBase: base, nobrace: true, noext: true });
    return all.flatMap((f, i) => (glob.match(f.path) ? [i] : []));
  }
  const folder = clean.replace(/\/+$/, '');
  return all.flatMap((f, i) => (f.path === folder || f.path.startsWith(`${folder}/`) ? [i] : []));
}

async function scan(threads: CodeThreads, tree: LoadedTree, request: Omit<ScanRequest, 'deadline'>, deadline: number): Promise<ScanResult> {
  const reply = await threads.run({ op: 'scan', tree: tree.shared, request: { ...request, deadline } }, deadline);
  if (!('scan' in reply)) throw new Error('unexpected reply from a code thread');
  return reply.scan;
}

async function outlines(
  threads: CodeThreads,
  tree: LoadedTree,
  files: number[],
  deadline: number,
): Promise<{ outlines: Array<{ file: number; symbols: CodeSymbol[] }>; stoppedBy: 'deadline' | null }> {
  const withLanguage = files.flatMap((file) => {
    const language = languageOfPath(tree.index.files[file].path);
    return language ? [{ file, language }] : [];
  });
  if (withLanguage.length === 0) return { outlines: [], stoppedBy: null };
  const reply = await threads.run({ op: 'outline', tree: tree.shared, files: withLanguage, deadline }, deadline);
  if (!('outlines' in reply)) throw new Error('unexpected reply from a code thread');
  return reply;
}

export async function searchTree(
  threads: CodeThreads,
  tree: LoadedTree,
  q: { pattern: string; regex: boolean; caseSensitive: boolean; scope?: string; limit: number; deadline: number },
): Promise<{ matches: CodeMatch[]; filesScanned: number; stoppedBy: Stop }> {
  const files = q.scope ? filesUnder(tree, q.scope) : undefined;
  const result = await scan(
    threads,
    tree,
    { pattern: q.pattern, regex: q.regex, caseSensitive: q.caseSensitive, wholeWord: false, files, maxMatches: q.limit, maxPerFile: q.limit },
    q.deadline,
  );
  return {
    matches: result.matches.map((m) => ({ path: tree.index.files[m.file].path, line: m.line, column: m.column, text: m.text })),
    filesScanned: result.filesScanned,
    stoppedBy: result.stoppedBy,
  };
}

/**
 * Definitions of `symbol` (`name` or `Container.name`): the files whose text names it as a
 * whole identifier (in a language with a grammar), then their outlines; or, with
 * `outlineOf`, one file's whole outline.
 */
export async function findDefinitions(
  threads: CodeThreads,
  tree: LoadedTree,
  q: { symbol?: string; outlineOf?: number; scope?: string; limit: number; deadline: number },
): Promise<{ symbols: FoundSymbol[]; filesScanned: number; stoppedBy: Stop }> {
  let candidates: number[];
  let filesScanned = 0;
  let stoppedBy: Stop = null;
  if (q.outlineOf !== undefined) candidates = [q.outlineOf];
  else {
    const name = (q.symbol ?? '').split('.').pop() ?? '';
    const parseable = filesUnder(tree, q.scope).filter((i) => languageOfPath(tree.index.files[i].path) !== undefined);
    const named = await scan(
      threads,
      tree,
      { pattern: name, regex: false, caseSensitive: true, wholeWord: true, files: parseable, maxMatches: MAX_PARSED_FILES, maxPerFile: 1 },
      q.deadline,
    );
    candidates = named.matches.map((m) => m.file);
    filesScanned = named.filesScanned;
    // 'limit': more files name it than are parsed for one question (MAX_PARSED_FILES).
    stoppedBy = named.stoppedBy;
  }
  const parsed = await outlines(threads, tree, candidates, q.deadline);
  const symbols: FoundSymbol[] = [];
  for (const o of parsed.outlines) {
    for (const s of o.symbols) if (q.symbol === undefined || symbolMatches(s, q.symbol)) symbols.push({ ...s, path: tree.index.files[o.file].path });
  }
  // Declarations before mere members of the same name; shallower paths (the library's own API) first.
  const rank = (s: FoundSymbol) =>
    (s.kind === 'field' || s.kind === 'variable' ? 1 : 0) +
    s.path.split('/').length / 100 +
    (/(^|\/)(tests?|__tests__|spec|specs|examples?|playground|fixtures?|demos?|e2e|benchmarks?|docs?|scripts)\//.test(s.path) ? 1 : 0);
  if (q.symbol !== undefined) symbols.sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path) || a.line - b.line);
  return { symbols: symbols.slice(0, q.limit), filesScanned, stoppedBy: parsed.stoppedBy ?? (symbols.length > q.limit ? 'limit' : stoppedBy) };
}

/** Lines naming `symbol` as a whole identifier; lines that declare it are marked `definition`. */
export async function findReferences(
  threads: CodeThreads,
  tree: LoadedTree,
  q: { symbol: string; scope?: string; limit: number; deadline: number },
): Promise<{ matches: CodeMatch[]; filesScanned: number; stoppedBy: Stop }> {
  const name = q.symbol.split('.').pop() ?? q.symbol;
  const found = await scan(
    threads,
    tree,
    {
      pattern: name,
      regex: false,
      caseSensitive: true,
      wholeWord: true,
      files: q.scope ? filesUnder(tree, q.scope) : undefined,
      maxMatches: q.limit,
      maxPerFile: q.limit,
    },
    q.deadline,
  );
  const files = [...new Set(found.matches.map((m) => m.file))].slice(0, MAX_PARSED_FILES);
  const parsed = await outlines(threads, tree, files, q.deadline);
  const declared = new Set(
    parsed.outlines.flatMap((o) => o.symbols.filter((s) => symbolMatches(s, q.symbol) || s.name === name).map((s) => `${o.file}:${s.line}`)),
  );
  const matches = found.matches.map((m) => ({
    path: tree.index.files[m.file].path,
    line: m.line,
    column: m.column,
    text: m.text,
    kind: declared.has(`${m.file}:${m.line}`) ? ('definition' as const) : ('reference' as const),
  }));
  return { matches, filesScanned: found.filesScanned, stoppedBy: found.stoppedBy };
}
