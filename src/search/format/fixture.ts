/** A ranked answer shared by the format tests (not a test file itself). */
import type { RankedSnippet } from '../types';

export const RANKED_FIXTURE: RankedSnippet[] = [
  {
    score: 0.91234567,
    doc: {
      id: 'c1',
      kind: 'code',
      title: 'Setting a signed cookie',
      description: 'Set a cookie that the client cannot forge:',
      content: '',
      language: 'js',
      code: "ctx.cookies.set('name', 'tobi', { signed: true });",
      breadcrumb: ['Context', 'ctx.cookies.set()'],
      pageTitle: 'Context',
      path: 'docs/api/context.md',
      url: 'https://github.com/koajs/koa/blob/v3.2.0/docs/api/context.md#L120',
      startLine: 120,
      tokens: 42,
    },
  },
  {
    score: 0.5,
    doc: {
      id: 'i1',
      kind: 'info',
      title: 'Cookies',
      description: '',
      content: 'Koa uses the cookies module.\nOptions are passed through.',
      language: '',
      code: '',
      breadcrumb: ['Context', 'API', 'Cookies'],
      pageTitle: 'Context',
      path: 'docs/api/index.md',
      url: 'https://github.com/koajs/koa/blob/v3.2.0/docs/api/index.md#L10',
      startLine: 10,
      tokens: 20,
    },
  },
  {
    score: 0.25,
    doc: {
      id: 'c2',
      kind: 'code',
      title: 'Markdown inside code',
      description: '',
      content: '',
      language: '',
      code: 'echo "```"',
      breadcrumb: [],
      pageTitle: 'Guide',
      path: 'docs/guide.md',
      url: 'https://github.com/koajs/koa/blob/v3.2.0/docs/guide.md#L5',
      startLine: 5,
      tokens: 12,
    },
  },
];
