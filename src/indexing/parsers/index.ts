/** Picks the parser for a documentation file by its extension. */
import type { DocumentParser, ParsedSnippet, SourceDocument } from '../types';
import { splitAsciidocIntoSnippets } from './asciidoc';
import { splitHtmlIntoSnippets } from './html';
import { splitNotebookIntoSnippets } from './ipynb';
import { splitMarkdownIntoSnippets } from './markdown';
import { splitRstIntoSnippets } from './rst';
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
  // Pages of website sources and uploaded built sites (Git selection keeps its own extension list).
  html: splitHtmlIntoSnippets,
  htm: splitHtmlIntoSnippets,
};

/** The parser for a path by its extension (case-insensitive), or undefined for other files. */
export function parserFor(path: string): DocumentParser | undefined {
  const ext = /\.([A-Za-z]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext ? BY_EXTENSION[ext] : undefined;
}

/**
 * Parses one document. Unknown formats yield no snippets; so does a parser fault, because
 * one broken page must not fail the build of a whole library (the parsers are total by
 * design, this is the last line of defence).
 */
export function parseDocument(doc: SourceDocument): ParsedSnippet[] {
  const parser = parserFor(doc.path);
  if (!parser) return [];
  try {
    return parser(doc);
  } catch {
    return [];
  }
}
