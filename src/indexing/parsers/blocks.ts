/** The blocks every format parser reduces a document to (sections.ts groups them into snippets). */

/** A heading opens a section; `level` only needs to order headings within one document. */
export interface HeadingBlock {
  kind: 'heading';
  level: number;
  /** Clean text: no markup, roles or backticks. */
  text: string;
  line: number;
}

/** A paragraph (or list, or table) of prose, already cleaned for reading. */
export interface ProseBlock {
  kind: 'prose';
  text: string;
  line: number;
}

export interface CodeBlock {
  kind: 'code';
  /** The code, dedented, without surrounding blank lines. */
  code: string;
  language: string;
  line: number;
  /** The file the code belongs in, when the fence names it (`title="vite.config.ts"`). */
  file?: string;
  /**
   * An API entry generated where a directive stood (Sphinx autodoc): its own title, under
   * the section's breadcrumb, and its own description instead of the prose before it.
   */
  entry?: { title: string; description: string };
}

export type DocBlock = HeadingBlock | ProseBlock | CodeBlock;

export interface SnippetSource {
  path: string;
  pageTitle: string;
}
