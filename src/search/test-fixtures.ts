/** Snippets shared by the search tests (not a test file itself). */
import { UNANALYSED, type SnippetDocument } from './types';
import type { ContextSnippet } from './types';

export function snippetDocument(overrides: Partial<SnippetDocument> = {}): SnippetDocument {
  return {
    kind: 'code',
    title: 'Setting a cookie',
    breadcrumb: ['Context', 'API', 'ctx.cookies.set()'],
    pageTitle: 'Context',
    description: 'Set cookie `name` to `value` with `options`:',
    content: '',
    language: 'js',
    code: "ctx.cookies.set('name', 'tobi', { signed: true, httpOnly: true });",
    path: 'docs/api/context.md',
    startLine: 120,
    id: 'abc123',
    libraryId: '/koajs/koa',
    version: '3.2.0',
    generation: 4,
    url: 'https://github.com/koajs/koa/blob/e0ba8ef/docs/api/context.md#L120',
    tokens: 60,
    fileHash: 'f00d',
    ...UNANALYSED,
    ...overrides,
  };
}

let counter = 0;

/** A context snippet with a unique id unless one is given. */
export function contextSnippet(overrides: Partial<ContextSnippet> = {}): ContextSnippet {
  counter += 1;
  const doc = snippetDocument();
  return {
    id: `s${counter}`,
    kind: doc.kind,
    title: doc.title,
    description: doc.description,
    content: doc.content,
    language: doc.language,
    code: `${doc.code} // ${counter}`,
    breadcrumb: doc.breadcrumb,
    pageTitle: doc.pageTitle,
    path: doc.path,
    url: doc.url,
    startLine: doc.startLine,
    tokens: doc.tokens,
    ...overrides,
  };
}
