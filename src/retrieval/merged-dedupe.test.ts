import test from 'ava';
import { comparableText } from '../search/copies';
import { crossSourceDuplicates } from './merged-dedupe';

const PROSE =
  'A gizmo spins at the rate you give it, in turns per second. The rate must be a positive number; a gizmo asked to spin at zero stops at once. Spinning faster than the rated limit throws an overspeed error before anything moves.';
const doc = (id: string, libraryId: string, content: string, title = 'Spinning a gizmo') => ({ id, libraryId, title, content, code: '', description: '' });

test('the same section from the repository and the website is one: the copy with the example is kept', (t) => {
  const repo = doc('r1', '/acme/gizmo', `${PROSE}\n\nSee [the API](../api.md#spin) for details.`);
  const site = doc(
    'w1',
    '/websites/gizmo',
    `${PROSE}\n\nSee [the API](https://gizmo.dev/api.html#spin) for details.\n\n\`\`\`js\ngizmo.spin({ rate: 3 });\n\`\`\``,
  );
  t.deepEqual([...crossSourceDuplicates([repo, site])], ['r1']);
  // Either order: the richer copy wins, not the first.
  t.deepEqual([...crossSourceDuplicates([site, repo])], ['r1']);
});

test('equally rich copies: the better ranked (earlier) one is kept', (t) => {
  const a = doc('a', '/acme/gizmo', PROSE);
  const b = doc('b', '/websites/gizmo', PROSE.replace('positive', 'POSITIVE'));
  t.deepEqual([...crossSourceDuplicates([a, b])], ['b']);
});

test("a source's own near-copies are left alone (its build judged them), and different sections stay", (t) => {
  const a = doc('a', '/acme/gizmo', PROSE);
  const b = doc('b', '/acme/gizmo', `${PROSE} Really.`);
  t.deepEqual([...crossSourceDuplicates([a, b])], []);
  const other = doc(
    'c',
    '/websites/gizmo',
    'Polish the chrome housing of a gizmo with a dry cloth; solvents dull the finish and void the warranty of the gizmo for good.',
    'Polishing',
  );
  t.deepEqual([...crossSourceDuplicates([a, other])], []);
});

test('short texts count only when equal word for word', (t) => {
  t.deepEqual([...crossSourceDuplicates([doc('a', '/x/a', 'Install it.', 'Install'), doc('b', '/y/b', 'install it', 'Install')])], ['b']);
  t.deepEqual([...crossSourceDuplicates([doc('a', '/x/a', 'Install it.', 'Install'), doc('b', '/y/b', 'Remove it.', 'Install')])], []);
});

test('comparable text drops link targets, tags and punctuation', (t) => {
  t.is(comparableText(doc('a', '/x/a', 'Use <kbd>ctx</kbd> and [the docs](https://x.dev/a.html).', 'T')), 't use ctx and the docs');
});
