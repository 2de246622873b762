/**
 * An accepted OpenAPI document as snippets: one code snippet per operation (curl and the
 * success response), and info snippets for the overview, servers, authentication, tags,
 * webhooks and callbacks. Pure: the same document always gives the same snippets.
 */
import type { ParsedSnippet } from '../types';
import { infoSections } from './info';
import type { JsonRecord } from './json';
import { createLineLocator } from './locate';
import { operationSnippet } from './operation-snippet';
import { listOperations } from './operations';
import type { OpenApiParseResult } from './types';

/** Where the document came from. */
export interface OpenApiSnippetOptions {
  /** The uploaded file's name (e.g. `openapi.json`); it becomes every snippet's `path`. */
  sourceName: string;
  /** The decoded source text; when given, snippets carry the line their part starts on. */
  rawText?: string;
}

/** Builds the snippets of a parsed document (see {@link parseOpenApiDocument}). */
export function openApiToSnippets(parsed: OpenApiParseResult, opts: OpenApiSnippetOptions): ParsedSnippet[] {
  const doc = parsed.document as JsonRecord;
  const locate = createLineLocator(opts.rawText, parsed.format);
  const ops = listOperations(doc, parsed.specVersion);
  const info = infoSections(parsed, doc, ops).map(
    (section): ParsedSnippet => ({
      kind: 'info',
      title: section.title,
      breadcrumb: [parsed.title, section.title],
      pageTitle: parsed.title,
      description: '',
      content: section.content,
      language: '',
      code: '',
      path: opts.sourceName,
      startLine: locate(section.keys),
    }),
  );
  const code = ops.map((op) =>
    operationSnippet(doc, parsed.specVersion, op, { apiTitle: parsed.title, path: opts.sourceName, startLine: locate(['paths', op.path, op.method]) }),
  );
  return [...info, ...code];
}
