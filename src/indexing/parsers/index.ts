/** Picks the parser for a documentation file by its extension. */
import type { DocumentParser, ParsedSnippet, SourceDocument } from '../types';
import { splitMarkdownIntoSnippets } from './markdown';
import { splitRstIntoSnippets } from './rst';
import { splitNotebookIntoSnippets } from './ipynb';
import { splitAsciidocIntoSnippets } from './asciidoc';
import { splitTextIntoSnippets } from './text';

const BY_EXTENSION: Record<string, DocumentParser> = {
  md: splitMarkdownIntoSnippets,
  mdx: splitMarkdownIntoSnippets,
  markdown: splitMarkdownIntoSnippets,
  rst: splitRstIntoSnippets,
  ipynb: splitNotebookIntoSnippets,
  adoc: splitAsciidocIntoSnippets,
  asciidoc: splitAsciidocIntoSnippets,
  txt: splitTextIntoSnippets,
};

export function parserFor(path: string): DocumentParser | undefined {
  const ext = /\.([A-Za-z]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext ? BY_EXTENSION[ext] : undefined;
}

/** Parses one document; unknown formats and parser faults yield no snippets (never throws). */
export function parseDocument(doc: SourceDocument): ParsedSnippet[] {
  const parser = parserFor(doc.path);
  if (!parser) return [];
  try {
    return parser(doc);
  } catch {
    return [];
  }
}
