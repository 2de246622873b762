/**
 * generateDocs: snippets built from a repository's source code — the exported functions,
 * classes and types of TypeScript/JavaScript (typescript.ts) and the public functions and
 * classes of Python (python.ts), each with its doc comment, its signature and its examples.
 * `selectSourceFiles` decides which files are read (source-files.ts).
 */
import type { ParsedSnippet } from '../types';
import { snippetsFromPython } from './python';
import { MAX_SOURCE_BYTES } from './source-files';
import { snippetsFromTypeScript } from './typescript';

export { MAX_SOURCE_BYTES, MAX_SOURCE_FILES, isDocumentableSource, selectSourceFiles, type SourceSelectionOptions } from './source-files';
export { snippetsFromPython } from './python';
export { snippetsFromTypeScript } from './typescript';

const SCRIPT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/**
 * Snippets for a set of source files, dispatched by extension; other files and files over
 * MAX_SOURCE_BYTES are skipped. Never throws: a file that cannot be read contributes nothing.
 */
export function generateDocsSnippets(files: readonly { path: string; text: string }[]): ParsedSnippet[] {
  const out: ParsedSnippet[] = [];
  for (const file of files) {
    if (file.text.length > MAX_SOURCE_BYTES) continue;
    try {
      if (file.path.endsWith('.py')) out.push(...snippetsFromPython(file));
      else if (SCRIPT.test(file.path)) out.push(...snippetsFromTypeScript(file));
    } catch {
      // Each generator already returns partial results; this guards against the unforeseen.
    }
  }
  return out;
}
