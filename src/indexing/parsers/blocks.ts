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
   * An API entry generated where a directive stood (Sphinx autodoc, mkdocstrings): its own
   * title, under the section's breadcrumb headed by `name` (the path the docs import it by)
   * when that differs, and its own description instead of the prose before it.
   */
  entry?: { title: string; name?: string; description: string };
}

export type DocBlock = HeadingBlock | ProseBlock | CodeBlock;

export interface SnippetSource {
  path: string;
  pageTitle: string;
}

/**
 * Whether a line opens with a picture or an embedded player: a Markdown image, `<img>`,
 * `<iframe>`, `<video>` and the like, or an MDX component named for one
 * (`<LiteYouTubeEmbed … />`, `<CodeSandbox …>`). Text readers cannot see it.
 */
export function opensWithMedia(line: string): boolean {
  return /^\s*(?:!\[[^\]]*\]\(|\[!\[|<(?:img|iframe|video|audio|picture|svg|object|embed)\b|<[A-Z][\w.]*(?:Embed|Video|YouTube|Youtube|Image|Img|Iframe|IFrame|Sandbox|Player|Gif)\b)/.test(
    line,
  );
}

/**
 * A paragraph that ends announcing a picture or player the snippet cannot show ("Here's what
 * that data flow looks like:") ends as a statement instead, so the prose does not point at
 * nothing; its words stay.
 */
export function endAnnouncement(blocks: DocBlock[]): void {
  const last = blocks[blocks.length - 1];
  if (last?.kind === 'prose' && /:\s*$/.test(last.text) && !/::\s*$/.test(last.text))
    blocks[blocks.length - 1] = { ...last, text: last.text.replace(/:\s*$/, '.') };
}
