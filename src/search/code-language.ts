/**
 * Code languages as clients name them (`language=ts`, `python3`, `shell`) and as fences
 * spell them, brought to one name, and what a snippet's examples are written in — for the
 * `language` input of a context answer, which ranks sections with examples in that language
 * first (or keeps only those, when asked strictly). Pure.
 */
import { fencedBlocks } from './format/fence';
import type { ContextSnippet } from './types';

const ALIASES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  node: 'javascript',
  nodejs: 'javascript',
  py: 'python',
  python3: 'python',
  py3: 'python',
  pycon: 'python',
  ipython: 'python',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  console: 'shell',
  shellsession: 'shell',
  'shell-session': 'shell',
  terminal: 'shell',
  yml: 'yaml',
  golang: 'go',
  rs: 'rust',
  rb: 'ruby',
  kt: 'kotlin',
  'c++': 'cpp',
  cxx: 'cpp',
  'c#': 'csharp',
  cs: 'csharp',
  htm: 'html',
  vue: 'vue',
  svelte: 'svelte',
  md: 'markdown',
  mdx: 'markdown',
  jsonc: 'json',
  json5: 'json',
};

/** One name per language: lower case, aliases folded (`TS` → typescript, `py` → python). */
export function normaliseLanguage(name: string): string {
  const lower = name
    .trim()
    .toLowerCase()
    .replace(/^language-/, '');
  return ALIASES[lower] ?? lower;
}

/** The languages of a snippet's examples (its fenced blocks, else its code's language); empty for prose. */
export function snippetLanguages(doc: Pick<ContextSnippet, 'content' | 'code' | 'language'>): Set<string> {
  const out = new Set<string>();
  if (doc.content !== '') for (const b of fencedBlocks(doc.content)) if (b.language) out.add(normaliseLanguage(b.language.split(/\s/)[0] ?? ''));
  if (out.size === 0 && doc.code !== '' && doc.language) out.add(normaliseLanguage(doc.language));
  out.delete('');
  return out;
}

/** Whether a snippet has code and none of it is in `language` (normalised). */
export function onlyOtherLanguages(doc: Pick<ContextSnippet, 'content' | 'code' | 'language'>, language: string): boolean {
  const langs = snippetLanguages(doc);
  return langs.size > 0 && !langs.has(language);
}
