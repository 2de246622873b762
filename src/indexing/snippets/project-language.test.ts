import test from 'ava';
import { projectLanguage, withProjectLanguage } from './project-language';
import { labelFences } from '../../search/format/fence';
import type { ParsedSnippet } from '../types';

const snippet = (content: string, language = '', path = 'docs/api-guide/settings.md'): ParsedSnippet => ({
  kind: 'code',
  title: 'Settings',
  breadcrumb: ['Settings'],
  pageTitle: 'Settings',
  description: 'Configuration for REST framework is namespaced:',
  content,
  language,
  code: '',
  path,
  startLine: 1,
});

test('a repository mostly of Python source is a Python project; a few scripts, or mostly JavaScript, are not', (t) => {
  const py = Array.from({ length: 12 }, (_, i) => `rest_framework/m${i}.py`);
  t.is(projectLanguage([...py, 'docs/index.md', 'setup.cfg']), 'python');
  t.is(projectLanguage(['tools/build.py', 'tools/release.py', 'docs/index.md']), '', 'two scripts do not make a Python project');
  t.is(projectLanguage([...py, ...Array.from({ length: 20 }, (_, i) => `src/m${i}.ts`)]), '');
});

test('labelFences labels only unlabelled fences, and only when the label says so', (t) => {
  const md = 'Intro:\n\n```\nx = 1\n```\n\n```js\nconst y = 2;\n```\n\n```\nGET /users/ HTTP/1.1\n```';
  t.is(
    labelFences(md, (code) => (code.includes('=') ? 'python' : '')),
    'Intro:\n\n```python\nx = 1\n```\n\n```js\nconst y = 2;\n```\n\n```\nGET /users/ HTTP/1.1\n```',
  );
});

test('in a Python project, unlabelled Markdown code that reads as Python is python; requests, shell and other sources stay', (t) => {
  const content = [
    'Configuration for REST framework is namespaced:',
    '',
    '```',
    "REST_FRAMEWORK = {\n    'DEFAULT_RENDERER_CLASSES': [\n        'rest_framework.renderers.JSONRenderer',\n    ]\n}",
    '```',
    '',
    'A request:',
    '',
    '```',
    'GET /api/users/ HTTP/1.1',
    '```',
  ].join('\n');
  const out = withProjectLanguage(snippet(content), 'python');
  t.is(out.language, 'python');
  t.true(out.content.includes('```python\nREST_FRAMEWORK = {'));
  t.true(out.content.includes('```\nGET /api/users/ HTTP/1.1\n```'), 'an HTTP request does not read as Python');
  t.deepEqual(withProjectLanguage(snippet(content), ''), snippet(content), 'not a Python project: unchanged');
  t.is(withProjectLanguage(snippet(content, '', 'docs/api.rst'), 'python').language, '', 'reST follows Sphinx rules in its parser');
  const labelled = snippet('Run:\n\n```sh\npip install djangorestframework\n```', 'sh');
  t.deepEqual(withProjectLanguage(labelled, 'python'), labelled);
});
