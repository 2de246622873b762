import test from 'ava';
import { LIBRARY_ID_NAMES, looseArguments, pickString, QUERY_NAMES, tokenBudget, tokensArgument } from './arguments';
import * as z from 'zod/v4';

test('pickString prefers the canonical name, then the aliases in order, skipping blanks and non-strings', (t) => {
  t.is(pickString({ libraryId: '/a/b', libraryName: 'b' }, LIBRARY_ID_NAMES), '/a/b');
  t.is(pickString({ libraryId: '  ', library_id: ' /a/b ' }, LIBRARY_ID_NAMES), '/a/b');
  t.is(pickString({ libraryId: 42, context7CompatibleLibraryID: '/a/b' }, LIBRARY_ID_NAMES), '/a/b');
  t.is(pickString({ question: 'q1', topic: 'q2' }, QUERY_NAMES), 'q1');
  t.is(pickString({}, QUERY_NAMES), undefined);
});

test('loose arguments keep unknown keys and publish the canonical required list', (t) => {
  const schema = looseArguments({ libraryId: z.string().optional(), query: z.string().optional() }, ['libraryId', 'query']);
  t.deepEqual(schema.parse({ library_id: '/a/b', userQuery: 'q' }), { library_id: '/a/b', userQuery: 'q' });
  const json = z.toJSONSchema(schema, { io: 'input' }) as { required?: string[] };
  t.deepEqual(json.required, ['libraryId', 'query']);
});

test('tokens accepts numbers and numeric strings; the budget is clamped to the service bounds', (t) => {
  t.is(tokensArgument.parse('800'), 800);
  t.is(tokensArgument.parse(undefined), undefined);
  t.false(tokensArgument.safeParse('lots').success);
  t.is(tokenBudget(undefined), 5000);
  t.is(tokenBudget(50), 100);
  t.is(tokenBudget(10_000_000), 100_000);
  t.is(tokenBudget(1234.6), 1235);
});
