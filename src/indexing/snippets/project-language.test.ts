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

test('a repository mostly of Python source is a Python project, one mostly of TypeScript or JavaScript a ts or js one; a few scripts are not', (t) => {
  const py = Array.from({ length: 12 }, (_, i) => `rest_framework/m${i}.py`);
  const ts = Array.from({ length: 20 }, (_, i) => `src/m${i}.ts`);
  t.is(projectLanguage([...py, 'docs/index.md', 'setup.cfg']), 'python');
  t.is(projectLanguage(['tools/build.py', 'tools/release.py', 'docs/index.md']), '', 'two scripts do not make a Python project');
  t.is(projectLanguage([...py, ...ts]), 'ts');
  t.is(projectLanguage([...ts, 'vite.config.js', 'scripts/release.mjs']), 'ts', 'config files do not make it JavaScript');
  t.is(projectLanguage(Array.from({ length: 12 }, (_, i) => `lib/m${i}.js`)), 'js');
  t.is(projectLanguage([...Array.from({ length: 12 }, (_, i) => `lib/m${i}.js`), ...Array.from({ length: 30 }, (_, i) => `src/m${i}.go`)]), '');
});

test('in a TypeScript project, unlabelled Markdown code that TypeScript reads as code is ts; version lists, logs, commands and prose stay', (t) => {
  const block = (code: string) => withProjectLanguage(snippet(`Thus:\n\n\`\`\`\n${code}\n\`\`\``), 'ts');
  t.is(block("throwOnError: (error, query) => typeof query.state.data === 'undefined'").language, 'ts');
  t.is(block('const client = new QueryClient()\n\nfunction App() {\n  return <Provider client={client}><Todos /></Provider>\n}').language, 'ts');
  t.is(block('function greet<T>(name: T): string {\n  return "hi " + name\n}').language, 'ts');
  t.is(block('Chrome >= 91\nFirefox >= 90\nSafari >= 15').language, '', 'parses as expressions, but reads as a version list');
  t.is(block("import { read } from 'fs-jetpack';\n         ^^^^\nSyntaxError: Named export 'read' not found.").language, '', 'an error message');
  t.is(block('GET /api/users 200 12ms').language, '');
  t.is(block('Install the package (optional) before you start').language, '');
  t.is(withProjectLanguage(snippet('Thus:\n\n```\nconst a = 1\n```'), 'js').content, 'Thus:\n\n```js\nconst a = 1\n```');
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
