import test from 'ava';
import { LibraryNotFoundError } from '../errors';
import type { DocsBackend } from './backend';
import { callTool } from './server';
import { UNEXPECTED_FAILURE_TEXT } from './errors';
import { queryDocsTool } from './tools/query-docs';

function backendFailingWith(error: unknown): DocsBackend {
  return {
    searchLibraries: () => Promise.reject(error),
    queryDocs: () => Promise.reject(error),
    searchAcross: () => Promise.reject(error),
    upgradeGuide: () => Promise.reject(error),
    queryCode: () => Promise.reject(error),
  };
}

test('an expected failure is an isError result with guidance, not logged', async (t) => {
  const logged: object[] = [];
  const result = await callTool(queryDocsTool, { libraryId: '/a/b', query: 'q' }, backendFailingWith(new LibraryNotFoundError('/a/b')), {
    error: (d) => logged.push(d),
  });
  t.true(result.isError);
  t.regex(JSON.stringify(result.content), /resolve-library-id/);
  t.is(logged.length, 0);
});

test('an unexpected failure is a generic isError result and is logged with the tool name', async (t) => {
  const logged: Array<{ tool?: string }> = [];
  const result = await callTool(queryDocsTool, { libraryId: '/a/b', query: 'q' }, backendFailingWith(new TypeError('x is undefined')), {
    error: (d) => logged.push(d),
  });
  t.deepEqual(result, { content: [{ type: 'text', text: UNEXPECTED_FAILURE_TEXT }], isError: true });
  t.is(logged[0]?.tool, 'query-docs');
});

test('the backend receives the canonical arguments and the clamped budget', async (t) => {
  let seen: unknown;
  const backend: DocsBackend = {
    searchLibraries: () => Promise.reject(new Error('unused')),
    queryDocs: (input) => {
      seen = input;
      return Promise.resolve('### ok');
    },
    searchAcross: () => Promise.reject(new Error('unused')),
    upgradeGuide: () => Promise.reject(new Error('unused')),
    queryCode: () => Promise.reject(new Error('unused')),
  };
  const result = await callTool(queryDocsTool, { library_id: '/a/b', question: ' how? ', tokens: 20 }, backend, { error: () => undefined });
  t.falsy(result.isError);
  t.deepEqual(seen, { libraryId: '/a/b', query: 'how?', tokens: 100 });
});
