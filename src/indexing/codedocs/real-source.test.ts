/**
 * generateDocs over real code already on this machine: koa and @koa/router from
 * node_modules, TypeScript's own declaration files, and the Python standard library.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { generateDocsSnippets, selectSourceFiles } from './index';
import { snippetsFromPython } from './python';
import { snippetsFromTypeScript } from './typescript';
import { cpuMs, cpuMsAsync } from '../../util/cpu-time';

const modules = path.resolve('node_modules');
const pythonLib = fs.existsSync('/usr/lib')
  ? fs
      .readdirSync('/usr/lib')
      .filter((d) => /^python3\.\d+$/.test(d))
      .map((d) => `/usr/lib/${d}`)
      .find((d) => fs.existsSync(`${d}/json/__init__.py`))
  : undefined;
const read = (root: string, rel: string) => ({ path: rel, text: fs.readFileSync(path.join(root, rel), 'utf8') });
const when = (ok: boolean) => (ok ? test : test.skip);

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

when(fs.existsSync(path.join(modules, 'koa/lib/application.js')))(
  'koa (CommonJS with JSDoc): app.use and ctx.cookies/ctx.throw come out with their docs',
  async (t) => {
    const root = path.join(modules, 'koa');
    const files = fs.readdirSync(path.join(root, 'lib')).map((f) => read(root, `lib/${f}`));
    const snippets = await generateDocsSnippets(files);
    const use = snippets.find((s) => s.title === 'Application.use()');
    t.truthy(use);
    t.regex(use?.description ?? '', /Use the given middleware `fn`/);
    t.is(use?.code, 'use (fn)');
    t.deepEqual(use?.breadcrumb, ['lib/application', 'class Application', 'Application.use()']);
    t.true(snippets.some((s) => s.title === 'context.cookies' && s.code.includes('get cookies')));
    const thrower = snippets.find((s) => s.title === 'context.throw()');
    t.regex(thrower?.description ?? '', /this\.throw\(403\)/);
    t.false(
      snippets.some((s) => s.title.endsWith('.onerror()')),
      '@api private is left out',
    );
    t.true(snippets.every((s) => s.language === 'javascript' && s.code.trim() !== ''));
  },
);

when(fs.existsSync(path.join(modules, '@koa/router/dist/index.d.ts')))('@koa/router declarations: router methods with TSDoc and fenced examples', (t) => {
  const snippets = snippetsFromTypeScript(read(path.join(modules, '@koa/router'), 'dist/index.d.ts'));
  const use = snippets.find((s) => s.title.endsWith('.use()'));
  t.truthy(use);
  t.regex(use?.description ?? '', /Use given middleware/);
  t.true((use?.code.split('\n').length ?? 0) > 1, 'all overloads listed');
  const example = snippets.find((s) => s.title === `${use?.title} example`);
  t.regex(example?.code ?? '', /router\.use\(/);
  t.is(example?.language, 'javascript');
  t.true(snippets.some((s) => s.title === 'type RouterOptions' || s.title === 'interface RouterOptions'));
  t.false(
    snippets.some((s) => /\._\w+/.test(s.title)),
    'no private members',
  );
});

when(pythonLib !== undefined)('Python json: dumps, loads and JSONEncoder with their docstrings and doctests', async (t) => {
  const root = pythonLib ?? '';
  const snippets = await generateDocsSnippets(['json/__init__.py', 'json/encoder.py', 'json/decoder.py'].map((p) => read(root, p)));
  const dumps = snippets.find((s) => s.title === 'dumps()' && s.path === 'json/__init__.py');
  t.regex(dumps?.description ?? '', /^Serialize `obj` to a JSON formatted `str`/);
  t.regex(dumps?.code ?? '', /^def dumps\(obj, \*, skipkeys=False,[\s\S]*\*\*kw\):$/);
  t.deepEqual(dumps?.breadcrumb, ['json', 'dumps()']);
  t.false(
    snippets.some((s) => s.path === 'json/__init__.py' && s.title === 'detect_encoding()'),
    '__all__ is respected',
  );
  const moduleExamples = snippets.filter((s) => s.title.startsWith('json example'));
  t.true(moduleExamples.length >= 3);
  t.true(moduleExamples.every((s) => s.language === 'pycon' && s.code.startsWith('>>> import json')));
  const encoder = snippets.find((s) => s.title === 'class JSONEncoder');
  t.regex(encoder?.code ?? '', /def encode\(self, o\): \.\.\./);
  t.regex(encoder?.description ?? '', /Constructor for JSONEncoder/, '__init__ docstring folded in');
  t.true(snippets.some((s) => s.title === 'JSONEncoder.encode() example' && s.language === 'pycon'));
});

when(fs.existsSync(path.join(modules, 'typescript/lib/lib.es5.d.ts')))("TypeScript's lib/*.d.ts are read quickly", (t) => {
  const root = path.join(modules, 'typescript/lib');
  const files = fs
    .readdirSync(root)
    .filter((f) => f.endsWith('.d.ts'))
    .map((f) => read(root, f));
  const { value: snippets, ms } = cpuMs(() => files.flatMap(snippetsFromTypeScript));
  t.log(`${files.length} files, ${(files.reduce((n, f) => n + f.text.length, 0) / 1e6).toFixed(1)} MB → ${snippets.length} snippets in ${ms.toFixed(0)} ms`);
  t.true(ms < 15_000);
  t.true(snippets.some((s) => s.title === 'ts.createSourceFile()'));
  t.true(snippets.some((s) => s.title === 'Array.map()' && /callbackfn/.test(s.code)));
});

when(pythonLib !== undefined)('a Python standard library folder is selected and read quickly', async (t) => {
  const root = pythonLib ?? '';
  const all = walk(root)
    .map((p) => path.relative(root, p))
    .filter((p) => !p.startsWith('site-packages') && !p.startsWith('dist-packages'));
  const chosen = selectSourceFiles(all);
  t.false(chosen.some((p) => /(^|\/)tests?\//.test(p) || /(^|\/)test_[^/]*\.py$/.test(p)));
  const files = chosen.map((p) => read(root, p));
  const { value: snippets, ms } = await cpuMsAsync(() => generateDocsSnippets(files));
  t.log(`${files.length} files, ${(files.reduce((n, f) => n + f.text.length, 0) / 1e6).toFixed(1)} MB → ${snippets.length} snippets in ${ms.toFixed(0)} ms`);
  t.true(ms < 15_000);
  t.true(snippets.length > 1000);
  t.notThrows(() => snippetsFromPython(read(root, 'json/__init__.py')));
});
