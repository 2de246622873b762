/**
 * Include resolution: a document's text as its readers see it, with the files its
 * include directives name (from the same commit) spliced in, before it is parsed. Parsers
 * stay pure; this is the asynchronous step that reads other files through `CommitFiles`.
 *
 * Conventions by format: Markdown/MDX — mdBook links, PyMdown/MkDocs snippets, FastAPI's
 * `{* *}` and `{! !}`, MyST's ```{include}``` fences (myst.ts), MDX raw imports, mkdocstrings' `::: pkg.Name` (mkdocstrings.ts); reST — Sphinx `literalinclude`/`include` and autodoc (autodoc.ts); AsciiDoc — `include::` with Antora ids.
 */
import { createHash } from 'node:crypto';
import type { SourceDocument } from '../types';
import type { CommitFiles } from '../pipeline/commit-files';
import { IncludeResolver, type IncludeProblem } from './resolver';
import { expandMdbook } from './mdbook';
import { expandMkdocsSnippets, snippetBases } from './mkdocs-snippets';
import { expandMdxRawImports } from './mdx-raw';
import { expandSphinx } from './sphinx';
import { expandAsciidoc } from './asciidoc';
import { expandAutodoc } from './autodoc';
import { expandFastapi, FASTAPI_DIRECTIVE } from './fastapi';
import { expandMkdocstrings, MKDOCSTRINGS_DIRECTIVE } from './mkdocstrings';
import { expandMyst, MYST_INCLUDE } from './myst';

export type { IncludeProblem } from './resolver';

export interface ExpandedDocument {
  text: string;
  /** Files spliced in (the document's snippets depend on their content too). */
  included: string[];
  /** Directives left as written, and why. */
  problems: IncludeProblem[];
}

/** Anything that looks like an include directive of any convention (a cheap pre-check). */
const ANY_DIRECTIVE =
  /\{\{#(?:include|rustdoc_include|playground|title)|8<-|\.\.\s+(?:literal)?include::|^\\?include::|raw-loader!|\?raw["']|\.\.\s+(?:py:)?auto\w+::/m;

/** Shared per build: the repository-wide settings conventions need (MkDocs base paths). */
export interface IncludeSettings {
  snippetBases?: string[];
}

/** Expanded text beyond this many bytes per document is left as written. */
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Expands the include directives of one document. Never throws for bad directives: a
 * missing target, a cycle or a missing part leaves the directive as written and is
 * reported in `problems`.
 */
export async function expandIncludes(
  doc: SourceDocument,
  files: CommitFiles,
  settings: IncludeSettings = {},
  maxBytes = DEFAULT_MAX_BYTES,
): Promise<ExpandedDocument> {
  if (!ANY_DIRECTIVE.test(doc.text) && !FASTAPI_DIRECTIVE.test(doc.text) && !MKDOCSTRINGS_DIRECTIVE.test(doc.text) && !MYST_INCLUDE.test(doc.text))
    return { text: doc.text, included: [], problems: [] };
  const r = new IncludeResolver(files, doc.path, maxBytes);
  const ext = /\.([A-Za-z]+)$/.exec(doc.path)?.[1]?.toLowerCase() ?? '';
  let text = doc.text;
  if (ext === 'md' || ext === 'mdx' || ext === 'markdown') {
    text = await expandMdbook(text, r);
    const bases = settings.snippetBases ?? (await snippetBases(r));
    text = await expandMkdocsSnippets(text, r, bases);
    text = await expandFastapi(text, r, bases);
    text = await expandMkdocstrings(text, r);
    text = await expandMyst(text, r);
    if (ext === 'mdx' || ext === 'md') text = await expandMdxRawImports(text, r);
  } else if (ext === 'rst') {
    text = await expandSphinx(text, r);
    text = await expandAutodoc(text, r);
  } else if (ext === 'adoc' || ext === 'asciidoc' || ext === 'asc') {
    text = await expandAsciidoc(text, r);
  }
  return { text, included: [...r.included], problems: r.problems };
}

/** Reads the repository-wide include settings once per build. */
export async function includeSettings(files: CommitFiles): Promise<IncludeSettings> {
  return { snippetBases: await snippetBases(new IncludeResolver(files, '', 0)) };
}

/**
 * The manifest hash of a document that includes other files: its blob id plus theirs, so
 * a refresh re-parses it when an included file changes (it never equals a plain blob id,
 * so such documents are always re-parsed, which is correct if not the cheapest).
 */
export function dependentHash(oid: string, included: string[], files: CommitFiles): string {
  const h = createHash('sha1');
  h.update(oid);
  for (const p of [...included].sort()) h.update(`\0${p}\0${files.oid(p) ?? ''}`);
  return `${oid}+${h.digest('hex').slice(0, 16)}`;
}

/** Job-log lines for include problems: the first few in full, then a count. */
export function describeProblems(problems: IncludeProblem[], limit = 20): string[] {
  const lines = problems.slice(0, limit).map((p) => `include in ${p.path}: ${p.reason}: ${p.target}`);
  if (problems.length > limit) lines.push(`... and ${problems.length - limit} more include problems`);
  return lines;
}
