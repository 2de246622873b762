/**
 * Code a page leaves unlabelled (Markdown's indented blocks, bare fences) in the language of
 * the project it documents: Django REST framework's guides indent every Python example. A
 * repository whose source files are mostly Python is a Python project, and there a block that
 * lexes and reads as Python (parsers/python-code.ts, the check behind Sphinx's highlight rule)
 * is labelled `python`; in a project mostly of TypeScript (or JavaScript) a block that
 * TypeScript's parser reads and that reads as code (parsers/script-code.ts) is `ts` (`js`).
 * Only these: they are the languages whose check we have, and a wrong label would mislead the
 * `language` filter more than none does.
 */
import type { ParsedSnippet } from '../types';
import { fencedBlocks, labelFences } from '../../search/format/fence';
import { readsAsPythonCode } from '../parsers/python-code';
import { readsAsScriptCode } from '../parsers/script-code';

const SOURCE = /\.(py|pyi|js|mjs|cjs|jsx|ts|mts|cts|tsx|go|rs|java|kt|rb|php|cs|swift|scala|c|cc|cpp|h|hpp|ex|exs|dart|lua)$/i;
const MARKDOWN = /\.(md|mdx|markdown)$/i;

/**
 * The language most of the repository's source files are in (at least ten of them), when it
 * is one whose code we can recognise: `python`, `ts` or `js`; else "".
 */
export function projectLanguage(paths: readonly string[]): string {
  let source = 0;
  const counts = { python: 0, ts: 0, js: 0 };
  for (const p of paths) {
    if (!SOURCE.test(p)) continue;
    source++;
    if (/\.pyi?$/i.test(p)) counts.python++;
    else if (/\.[mc]?tsx?$/i.test(p)) counts.ts++;
    else if (/\.[mc]?jsx?$/i.test(p)) counts.js++;
  }
  if (counts.python >= 10 && counts.python * 2 > source) return 'python';
  // A TypeScript project's JavaScript (config, build output) does not make it a JavaScript one.
  const script = counts.ts + counts.js;
  if (script >= 10 && script * 2 > source) return counts.ts >= counts.js ? 'ts' : 'js';
  return '';
}

const CHECKS: Record<string, (code: string) => boolean> = { python: readsAsPythonCode, ts: readsAsScriptCode, js: readsAsScriptCode };

/** A Markdown snippet with its unlabelled code that reads as the project's language labelled so. */
export function withProjectLanguage(snippet: ParsedSnippet, language: string): ParsedSnippet {
  const check = CHECKS[language];
  if (!check || snippet.kind !== 'code' || !MARKDOWN.test(snippet.path)) return snippet;
  const label = (code: string) => (check(code) ? language : '');
  if (snippet.content === '') return snippet.language === '' && label(snippet.code) ? { ...snippet, language } : snippet;
  const content = labelFences(snippet.content, label);
  if (content === snippet.content) return snippet;
  return { ...snippet, content, language: snippet.language || (fencedBlocks(content)[0]?.language ?? '') };
}
