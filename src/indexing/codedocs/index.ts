/**
 * generateDocs: snippets built from a repository's source code — the exported functions,
 * classes and types of TypeScript/JavaScript (typescript.ts) and the public functions and
 * classes of Python (python.ts), each with its doc comment, its signature and its examples.
 * `selectSourceFiles` decides which files are read (source-files.ts).
 */
import type { ParsedSnippet } from '../types';
import { snippetsFromPython } from './python';
import { MAX_SOURCE_BYTES } from './source-files';

export { MAX_SOURCE_BYTES, MAX_SOURCE_FILES, isDocumentableSource, selectSourceFiles, type SourceSelectionOptions } from './source-files';
export { snippetsFromPython } from './python';

const SCRIPT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/**
 * Snippets for a set of source files, dispatched by extension; other files and files over
 * MAX_SOURCE_BYTES are skipped. Never throws: a file that cannot be read contributes nothing.
 *
 * The TypeScript compiler (typescript.ts) is imported only when there is a script to read:
 * loading it adds ~140 MB to the process, which every server would otherwise carry.
 */
export async function generateDocsSnippets(files: readonly { path: string; text: string }[]): Promise<ParsedSnippet[]> {
  const out: ParsedSnippet[] = [];
  const { snippetsFromTypeScript } = files.some((f) => SCRIPT.test(f.path)) ? await import('./typescript') : { snippetsFromTypeScript: undefined };
  for (const file of files) {
    if (file.text.length > MAX_SOURCE_BYTES) continue;
    try {
      if (file.path.endsWith('.py')) out.push(...snippetsFromPython(file));
      else if (SCRIPT.test(file.path) && snippetsFromTypeScript) out.push(...snippetsFromTypeScript(file));
    } catch {
      // Each generator already returns partial results; this guards against the unforeseen.
    }
  }
  return out;
}
