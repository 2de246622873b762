/**
 * Code a page leaves unlabelled (Markdown's indented blocks, bare fences) in the language of
 * the project it documents: Django REST framework's guides indent every Python example. A
 * repository whose source files are mostly Python is a Python project, and there a block that
 * lexes and reads as Python (parsers/python-code.ts, the check behind Sphinx's
 * highlight rule) is labelled `python`. Only Python: it is the one language whose check we
 * have, and a wrong label would mislead the `language` filter more than none does.
 */
import type { ParsedSnippet } from '../types';
import { fencedBlocks, labelFences } from '../../search/format/fence';
import { readsAsPythonCode } from '../parsers/python-code';

const SOURCE = /\.(py|pyi|js|mjs|cjs|jsx|ts|mts|cts|tsx|go|rs|java|kt|rb|php|cs|swift|scala|c|cc|cpp|h|hpp|ex|exs|dart|lua)$/i;
const MARKDOWN = /\.(md|mdx|markdown)$/i;

/** `python` when most of the repository's source files are Python (at least ten of them), else "". */
export function projectLanguage(paths: readonly string[]): string {
  let source = 0;
  let python = 0;
  for (const p of paths) {
    if (!SOURCE.test(p)) continue;
    source++;
    if (/\.pyi?$/i.test(p)) python++;
  }
  return python >= 10 && python * 2 > source ? 'python' : '';
}

/** A Markdown snippet with its unlabelled code that reads as the project's language labelled so. */
export function withProjectLanguage(snippet: ParsedSnippet, language: string): ParsedSnippet {
  if (language !== 'python' || snippet.kind !== 'code' || !MARKDOWN.test(snippet.path)) return snippet;
  const label = (code: string) => (readsAsPythonCode(code) ? 'python' : '');
  if (snippet.content === '') return snippet.language === '' && label(snippet.code) ? { ...snippet, language: 'python' } : snippet;
  const content = labelFences(snippet.content, label);
  if (content === snippet.content) return snippet;
  return { ...snippet, content, language: snippet.language || (fencedBlocks(content)[0]?.language ?? '') };
}
