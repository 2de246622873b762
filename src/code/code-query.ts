/**
 * Use case "the library's code at the documented version" (HTTP `GET /v2/code`, the CLI's
 * `code`, the MCP tool `query-code`): the library as the caller may use it (`usableLibrary`:
 * a private copy is invisible to other teams, policies apply), the version as context
 * chooses it (exact, range, closest; version-choice.ts), then one operation over the tree
 * kept at that version's commit (kept-tree.ts): search (literal or regex), the definition
 * or the references of a symbol, the outline of a file (or the files of a folder), or a
 * range of lines. Every operation is bounded (results, lines, bytes) and the whole request
 * has one deadline (CODE_SEARCH_TIMEOUT_MS); the answer says which commit it read and
 * whether it stopped early.
 */
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import { NoSnippetsFoundError, NotFoundError, ValidationError } from '../errors';
import { parseLibraryId } from '../domain/library-ids';
import { usableLibrary } from '../catalog/access';
import { clientLibraryId } from '../domain/library-keys';
import { chooseVersion } from '../retrieval/version-choice';
import { provenanceOf, type Provenance } from '../retrieval/provenance';
import { keptTreeDir } from '../indexing/code-trees/kept-tree';
import { TreeCache, type LoadedTree } from './tree-cache';
import { codeThreads } from './code-workers';
import { filesUnder, findDefinitions, findReferences, searchTree, type CodeMatch, type FoundSymbol } from './operations';
import { languageOfPath } from './symbols';

export const CODE_OPERATIONS = ['search', 'definition', 'references', 'outline', 'read'] as const;
export type CodeOperation = (typeof CODE_OPERATIONS)[number];

export interface CodeRequest {
  /** `/owner/repo`, optionally with `/version` or `@version`. */
  libraryId: string;
  /** A version, a semver range, `closest[:<v>]` or `latest` (as context takes it). */
  version?: string;
  operation: CodeOperation;
  /** search: the text or pattern; definition and references: the symbol (`name` or `Class.name`). */
  query?: string;
  regex?: boolean;
  /** Default: "smart case", sensitive only when the query has a capital letter (as ripgrep's --smart-case). */
  caseSensitive?: boolean;
  /** outline and read: the file (outline of a folder lists its files); others: a folder, file or glob to search in. */
  path?: string;
  startLine?: number;
  endLine?: number;
  /** At most this many results (default 30, at most 200). */
  limit?: number;
}

export interface CodeAnswer {
  libraryId: string;
  operation: CodeOperation;
  provenance: Provenance;
  tree: { commit: string; files: number; omitted: { binary: number; tooLarge: number; overCap: number; symlinks: number } };
  query?: string;
  matches?: CodeMatch[];
  symbols?: FoundSymbol[];
  files?: string[];
  file?: { path: string; language: string | null; startLine: number; endLine: number; totalLines: number; text: string };
  filesScanned?: number;
  /** Why the answer stopped early (null: it is complete). */
  stoppedBy: 'limit' | 'deadline' | null;
}

export const DEFAULT_CODE_LIMIT = 30;
export const MAX_CODE_LIMIT = 200;
/** A read returns at most this many lines and bytes. */
export const MAX_READ_LINES = 400;
const MAX_READ_BYTES = 64 * 1024;
/** An outline lists at most this many symbols (a generated file can declare thousands). */
const MAX_OUTLINE_SYMBOLS = 1000;
const GIT_SOURCES = new Set(['github', 'gitlab', 'bitbucket', 'git']);

let cache: TreeCache | undefined;

export async function queryCode(services: Pick<Ports, 'libraries' | 'policies' | 'config'>, principal: Principal, request: CodeRequest): Promise<CodeAnswer> {
  const deadline = Date.now() + services.config.code.searchTimeoutMs;
  const { libraryId, version: fromId } = parseLibraryId(request.libraryId);
  const query = request.query?.trim() ?? '';
  if (query.length > 500) throw new ValidationError('query is too long (at most 500 characters).', 'query');
  const limit = Math.min(MAX_CODE_LIMIT, Math.max(1, request.limit ?? DEFAULT_CODE_LIMIT));

  const library = await usableLibrary(services, principal, libraryId);
  const choice = chooseVersion(library, fromId, request.version);
  if (!choice) throw new NoSnippetsFoundError(`${libraryId} (it is still being indexed)`);
  const id = clientLibraryId(library._id);
  if (!GIT_SOURCES.has(library.source))
    throw new NotFoundError(`${id} is not a Git library (its source is ${library.source}): the code tools read the repository a library was indexed from.`);
  const commit = choice.record.commit;
  cache ??= new TreeCache(services.config.code.cacheBytes);
  // A revision that is not a commit id (a build from pages in memory) has no kept tree.
  const tree = /^[0-9a-f]{7,64}$/.test(commit) ? cache.load(keptTreeDir(services.config.code.dir, library._id, commit)) : undefined;
  if (!tree) {
    throw new NotFoundError(
      `The code of ${id} ${choice.served}${commit ? ` (commit ${commit.slice(0, 12)})` : ''} is not kept: it was indexed before code was kept, or code keeping is off (CODE_TREE_MAX_MB=0). Refresh the library (POST /v2/refresh) to keep it.`,
    );
  }
  const base: Omit<CodeAnswer, 'stoppedBy'> = {
    libraryId: id,
    operation: request.operation,
    provenance: provenanceOf(library, choice),
    tree: { commit: tree.index.commit, files: tree.index.files.length, omitted: tree.index.omitted },
  };
  const threads = codeThreads();
  const scope = request.path?.trim() || undefined;
  switch (request.operation) {
    case 'search': {
      if (!query) throw new ValidationError('search needs query: the text (or with regex, the pattern) to find.', 'query');
      const found = await searchTree(threads, tree, {
        pattern: query,
        regex: request.regex ?? false,
        caseSensitive: request.caseSensitive ?? /[A-Z]/.test(query),
        scope,
        limit,
        deadline,
      });
      return { ...base, query, matches: found.matches, filesScanned: found.filesScanned, stoppedBy: found.stoppedBy };
    }
    case 'definition':
    case 'references': {
      if (!query) throw new ValidationError(`${request.operation} needs query: the symbol's name, e.g. "createServer" or "Application.use".`, 'query');
      if (!/^[\p{L}\p{N}_$]+(?:[.:#]{1,2}[\p{L}\p{N}_$]+)*$/u.test(query))
        throw new ValidationError('query must be a symbol name (letters, digits, _ and $, parts joined by "." or "::"), e.g. "Application.use".', 'query');
      const symbol = query.replace(/::|#/g, '.');
      if (request.operation === 'definition') {
        const found = await findDefinitions(threads, tree, { symbol, scope, limit, deadline });
        return { ...base, query, symbols: found.symbols, filesScanned: found.filesScanned, stoppedBy: found.stoppedBy };
      }
      const found = await findReferences(threads, tree, { symbol, scope, limit, deadline });
      return { ...base, query, matches: found.matches, filesScanned: found.filesScanned, stoppedBy: found.stoppedBy };
    }
    case 'outline': {
      if (!scope) throw new ValidationError('outline needs path: a file (its symbols) or a folder (its files), e.g. "lib/application.js".', 'path');
      const file = fileOf(tree, scope);
      if (file === undefined) {
        const under = filesUnder(tree, scope);
        if (under.length === 0) throw notInTree(id, scope);
        return {
          ...base,
          files: under.slice(0, MAX_CODE_LIMIT * 5).map((i) => tree.index.files[i].path),
          stoppedBy: under.length > MAX_CODE_LIMIT * 5 ? 'limit' : null,
        };
      }
      const found = await findDefinitions(threads, tree, { outlineOf: file, limit: MAX_OUTLINE_SYMBOLS, deadline });
      return { ...base, symbols: found.symbols, stoppedBy: found.stoppedBy };
    }
    case 'read': {
      if (!scope) throw new ValidationError('read needs path: the file to read, e.g. "lib/application.js".', 'path');
      const file = fileOf(tree, scope);
      if (file === undefined) throw notInTree(id, scope);
      return { ...base, ...readRange(tree, file, request.startLine, request.endLine), stoppedBy: null };
    }
  }
}

function fileOf(tree: LoadedTree, p: string): number | undefined {
  return tree.byPath.get(p.replace(/^\.?\/+/, ''));
}

function notInTree(id: string, p: string): NotFoundError {
  return new NotFoundError(
    `${p} is not a kept file or folder of ${id} at this version (binary files and files over the size caps are not kept). Use outline on a folder, or search, to find it.`,
  );
}

/** Lines `startLine`..`endLine` (1-based, inclusive) of a file, within the read caps. */
export function readRange(tree: LoadedTree, file: number, startLine = 1, endLine?: number): Pick<CodeAnswer, 'file'> {
  const p = tree.index.files[file].path;
  const lines = TreeCache.text(tree, file).split('\n');
  const total = lines.length;
  if (startLine < 1 || startLine > total) throw new ValidationError(`startLine must be a line of ${p} (1 to ${total}).`, 'startLine');
  if (endLine !== undefined && endLine < startLine) throw new ValidationError('endLine must not be before startLine.', 'endLine');
  let last = Math.min(total, endLine ?? startLine + 199, startLine + MAX_READ_LINES - 1);
  let text = lines.slice(startLine - 1, last).join('\n');
  while (Buffer.byteLength(text) > MAX_READ_BYTES && last > startLine) {
    last = startLine + Math.floor((last - startLine) / 2);
    text = lines.slice(startLine - 1, last).join('\n');
  }
  return { file: { path: p, language: languageOfPath(p) ?? null, startLine, endLine: last, totalLines: total, text } };
}
