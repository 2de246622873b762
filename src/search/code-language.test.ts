import test from 'ava';
import { normaliseLanguage, onlyOtherLanguages, snippetLanguages } from './code-language';

test('language names fold to one: aliases and case', (t) => {
  t.is(normaliseLanguage('TS'), 'typescript');
  t.is(normaliseLanguage('py'), 'python');
  t.is(normaliseLanguage('python3'), 'python');
  t.is(normaliseLanguage('console'), 'shell');
  t.is(normaliseLanguage('rust'), 'rust');
});

test("a snippet's languages come from its fences, else its code; prose has none", (t) => {
  const section = { content: 'Run it:\n\n```py\nprint(1)\n```\n\nOr:\n\n```bash title="x"\nrun\n```', code: 'print(1)', language: 'py' };
  t.deepEqual([...snippetLanguages(section)].sort(), ['python', 'shell']);
  t.deepEqual([...snippetLanguages({ content: '', code: 'GET /x', language: 'http' })], ['http']);
  t.deepEqual([...snippetLanguages({ content: 'Only prose.', code: '', language: '' })], []);
  t.false(onlyOtherLanguages(section, 'python'));
  t.true(onlyOtherLanguages(section, 'typescript'));
  t.false(onlyOtherLanguages({ content: 'Only prose.', code: '', language: '' }, 'typescript'), 'prose is never "another language"');
});
