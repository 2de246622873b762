/** generateDocs: snippets from a repository's source code (TypeScript/JavaScript and Python). */
import type { ParsedSnippet } from '../types';
import { snippetsFromTypeScript } from './typescript';
import { snippetsFromPython } from './python';

const SOURCE = /\.(tsx?|jsx?|mjs|cjs|mts|cts|py)$/;
const SKIP = /(^|\/)(node_modules|dist|build|vendor|coverage|\.git|fixtures?|__fixtures__|__tests__|tests?|e2e|benchmarks?|docs_src)\//;
const TEST_FILE = /(\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)test_[^/]*\.py$|_test\.py$|(^|\/)conftest\.py$|\.min\.js$)/;
export const MAX_SOURCE_FILES = 2000;

/** Source files worth documenting, most central first (src/, lib/, packages/x/src, index files). */
export function selectSourceFiles(paths: string[]): string[] {
  const rank = (p: string) => (/(^|\/)(index|__init__)\.[a-z]+$/.test(p) ? 0 : 1) + (/^(src|lib)\/|^packages\/[^/]+\/(src|lib)\//.test(p) ? 0 : 2) + p.split('/').length / 100;
  return paths
    .filter((p) => SOURCE.test(p) && !SKIP.test(p) && !TEST_FILE.test(p))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .slice(0, MAX_SOURCE_FILES);
}

export function generateDocsSnippets(files: { path: string; text: string }[]): ParsedSnippet[] {
  const out: ParsedSnippet[] = [];
  for (const f of files) {
    try {
      out.push(...(f.path.endsWith('.py') ? snippetsFromPython(f) : snippetsFromTypeScript(f)));
    } catch {
      // A file the scanner cannot read contributes nothing.
    }
  }
  return out;
}
