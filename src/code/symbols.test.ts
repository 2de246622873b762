import test from 'ava';
import { languageOfPath, outlineOf, symbolMatches } from './symbols';

const brief = (s: { kind: string; name: string; container?: string; line: number }) => `${s.kind} ${s.container ? `${s.container}.` : ''}${s.name}@${s.line}`;

test('TypeScript: classes with their members, functions, interfaces, types, enums, exported consts; no locals', async (t) => {
  const text = [
    'export class Server extends Base {', // 1
    '  port = 80;',
    '  listen(port: number): void {',
    '    const local = 1;',
    '    function helper() {}',
    '  }',
    '}',
    'export function createServer(opts?: Options): Server { return new Server(); }',
    'interface Options { port?: number; close(): void }',
    'type Handler = (req: Request) => void;',
    'enum Mode { A, B }',
    'export const DEFAULT_PORT = 3000, { a } = obj;',
    'namespace Util { export function id<T>(x: T) { return x; } }',
  ].join('\n');
  const symbols = await outlineOf(text, 'typescript');
  t.deepEqual(symbols.map(brief), [
    'class Server@1',
    'field Server.port@2',
    'method Server.listen@3',
    'function createServer@8',
    'interface Options@9',
    'field Options.port@9',
    'method Options.close@9',
    'type Handler@10',
    'enum Mode@11',
    'variable DEFAULT_PORT@12',
    'module Util@13',
    'method Util.id@13',
  ]);
  t.is(symbols.find((s) => s.name === 'listen')?.endLine, 6);
  t.is(symbols.find((s) => s.name === 'createServer')?.signature, 'export function createServer(opts?: Options): Server { return new Server(); }');
});

test('Python, Go and Rust declarations', async (t) => {
  const py = await outlineOf('class App:\n    def run(self):\n        def inner(): pass\n\n@decorator\ndef route(path):\n    pass\n', 'python');
  t.deepEqual(py.map(brief), ['class App@1', 'method App.run@2', 'function route@6']);
  const go = await outlineOf(
    'package x\n\ntype Engine struct{}\n\nfunc New() *Engine { return nil }\n\nfunc (e *Engine) Run() error { return nil }\n\nconst Version = "1"\n',
    'go',
  );
  t.deepEqual(go.map(brief), ['type Engine@3', 'function New@5', 'method Run@7', 'constant Version@9']);
  const rs = await outlineOf('pub struct Grep;\nimpl Grep {\n    pub fn search(&self) {}\n}\npub trait Matcher { fn find(&self); }\n', 'rust');
  t.deepEqual(rs.map(brief), ['class Grep@1', 'class Grep@2', 'method Grep.search@3', 'interface Matcher@5', 'method Matcher.find@5']);
});

test('languages by extension; a qualified name matches its member only', (t) => {
  t.is(languageOfPath('lib/application.js'), 'javascript');
  t.is(languageOfPath('src/App.TSX'), 'tsx');
  t.is(languageOfPath('README.md'), undefined);
  const s = { name: 'use', kind: 'method' as const, line: 1, endLine: 1, container: 'Application', signature: '' };
  t.true(symbolMatches(s, 'use'));
  t.true(symbolMatches(s, 'Application.use'));
  t.false(symbolMatches(s, 'Router.use'));
});
