import test from 'ava';
import type { ParsedSnippet } from '../types';
import { snippetsFromTypeScript } from './typescript';

const ts = (text: string, path = 'src/app.ts') => snippetsFromTypeScript({ path, text });
const titled = (snippets: ParsedSnippet[], title: string) => snippets.find((s) => s.title === title);
const titles = (snippets: ParsedSnippet[]) => snippets.map((s) => s.title);

const APP = `import { Router } from './router';

/**
 * Creates an application.
 *
 * Call {@link App.listen | listen} to start it.
 *
 * @param options - How the app behaves
 * @param {number} [options.port=3000] - Port to listen on
 * @returns The application
 * @throws {ConfigError} When the options are invalid
 * @example
 * \`\`\`ts
 * const app = createApp({ port: 8080 });
 * app.listen();
 * \`\`\`
 * @example
 * createApp().listen(0)
 */
export function createApp(options: AppOptions = {}): App {
  const app = new App(options);
  return app;
}

function helper() {
  return 1;
}
`;

test('an exported function: signature without body, TSDoc rendered, examples as their own snippets', (t) => {
  const snippets = ts(APP);
  t.deepEqual(titles(snippets), ['createApp()', 'createApp() example', 'createApp() example 2']);
  const [fn, ex1, ex2] = snippets;
  t.is(fn.kind, 'code');
  t.is(fn.code, 'export function createApp(options: AppOptions = {}): App');
  t.is(fn.language, 'typescript');
  t.deepEqual(fn.breadcrumb, ['src/app', 'createApp()']);
  t.is(fn.pageTitle, 'src/app');
  t.is(fn.path, 'src/app.ts');
  t.is(fn.startLine, 20, 'the declaration line, not the comment');
  t.true(fn.description.startsWith('Creates an application.\n\nCall listen to start it.'));
  t.true(fn.description.includes('Parameters:\n- options: How the app behaves\n- options.port (number, optional, default 3000): Port to listen on'));
  t.true(fn.description.includes('Returns: The application'));
  t.true(fn.description.includes('Throws: When the options are invalid'));
  t.false(fn.description.includes('@example'));
  t.is(ex1.code, 'const app = createApp({ port: 8080 });\napp.listen();');
  t.is(ex1.language, 'typescript');
  t.is(ex1.startLine, 14);
  t.is(ex1.description, 'Creates an application.');
  t.deepEqual(ex1.breadcrumb, ['src/app', 'createApp()']);
  t.is(ex2.code, 'createApp().listen(0)');
  t.is(ex2.startLine, 18);
});

test('a class: outline of public members, documented public methods as snippets, private ones left out', (t) => {
  const snippets = ts(`
/** Routes requests. */
export class Router<S = {}> extends Base implements Handler {
  /** Registered routes. */
  routes: Route[] = [];
  private table = new Map<string, Route>();
  protected cache?: string;
  #secret = 1;
  _legacy = true;
  static readonly VERSION = '1.0';

  /** Makes a router. */
  constructor(private readonly opts: RouterOptions = {}) {
    super();
  }

  /**
   * Adds middleware.
   * @example router.use(logger())
   */
  use(fn: Middleware): this {
    this.stack.push(fn);
    return this;
  }

  get(path: string, handler: Handler): this {
    return this;
  }

  /** Not for you. */
  private match(path: string): Route | undefined {
    return undefined;
  }

  /** @internal */
  reset(): void {}

  /** The route prefix. */
  get prefix(): string {
    return this.opts.prefix ?? '';
  }

  /** Creates a router from a table. */
  static from(table: Table): Router {
    return new Router();
  }
}
`);
  t.deepEqual(titles(snippets), ['class Router', 'Router.routes', 'new Router()', 'Router.use()', 'Router.use() example', 'Router.prefix', 'Router.from()']);
  const outline = titled(snippets, 'class Router');
  t.is(
    outline?.code,
    [
      'export class Router<S = {}> extends Base implements Handler {',
      '  routes: Route[] = [];',
      "  static readonly VERSION = '1.0';",
      '  constructor(private readonly opts: RouterOptions = {});',
      '  use(fn: Middleware): this;',
      '  get(path: string, handler: Handler): this;',
      '  get prefix(): string;',
      '  static from(table: Table): Router;',
      '}',
    ].join('\n'),
  );
  t.is(outline?.description, 'Routes requests.');
  const use = titled(snippets, 'Router.use()');
  t.is(use?.code, 'use(fn: Middleware): this');
  t.is(use?.description, 'Adds middleware.');
  t.deepEqual(use?.breadcrumb, ['src/app', 'class Router', 'Router.use()']);
  t.is(titled(snippets, 'Router.use() example')?.code, 'router.use(logger())');
  t.is(titled(snippets, 'Router.prefix')?.code, 'get prefix(): string');
});

test('interfaces, type aliases and enums keep their whole declaration; documented interface methods get snippets', (t) => {
  const snippets = ts(`
/** Options of the app. */
export interface AppOptions {
  /** Port to listen on. */
  port?: number;
  /**
   * Called on errors.
   * @param error - what went wrong
   */
  onError(error: Error): void;
}

/** A handler. */
export type Handler = (ctx: Context) => Promise<void>;

export enum Color {
  Red = 'red',
  Green = 'green',
}

interface Internal { x: number }
`);
  t.deepEqual(titles(snippets), ['interface AppOptions', 'AppOptions.onError()', 'type Handler', 'enum Color']);
  t.true(titled(snippets, 'interface AppOptions')?.code.includes('/** Port to listen on. */\n  port?: number;'));
  t.is(titled(snippets, 'AppOptions.onError()')?.code, 'onError(error: Error): void;');
  t.is(titled(snippets, 'AppOptions.onError()')?.description, 'Called on errors.\n\nParameters:\n- error: what went wrong');
  t.is(titled(snippets, 'type Handler')?.code, 'export type Handler = (ctx: Context) => Promise<void>;');
  t.is(titled(snippets, 'enum Color')?.code, "export enum Color {\n  Red = 'red',\n  Green = 'green',\n}");
});

test('a long interface is bounded with a marker and its closing brace', (t) => {
  const fields = Array.from({ length: 100 }, (_, i) => `  field${i}: string;`).join('\n');
  const [snippet] = ts(`export interface Big {\n${fields}\n}\n`);
  const lines = snippet.code.split('\n');
  t.is(lines.length, 60);
  t.is(lines[58], '  // … 43 more lines');
  t.is(lines[59], '}');
});

test('overloads become one snippet listing the overload signatures, not the implementation', (t) => {
  const snippets = ts(`
/** Parses a value. */
export function parse(input: string): Value;
export function parse(input: Buffer, encoding: string): Value;
export function parse(input: string | Buffer, encoding?: string): Value {
  return {} as Value;
}
`);
  t.deepEqual(titles(snippets), ['parse()']);
  t.is(snippets[0].code, 'export function parse(input: string): Value\nexport function parse(input: Buffer, encoding: string): Value');
  t.is(snippets[0].description, 'Parses a value.');
});

test("export lists make local declarations public; a module's unexported helpers are skipped even when documented", (t) => {
  const snippets = ts(`
function a(x: number) { return x; }
function b() {}
/** Documented but not exported: an implementation detail of this module. */
function c() {}
class D {}
export { a, D as Dee };
export * from './other';
`);
  t.deepEqual(titles(snippets), ['a()', 'class D']);
});

test('exported const arrow functions, function expressions and wrapped components', (t) => {
  const snippets = ts(
    `
/** Adds two numbers. */
export const add = (a: number, b: number): number => a + b;

export const handler = async function handle(req: Request) {
  return new Response();
};

/** A button. */
export const Button = forwardRef<HTMLButtonElement, Props>((props, ref) => {
  return <button ref={ref} {...props} />;
});

/** The default timeout in ms. */
export const TIMEOUT = 5000;

export const UNDOCUMENTED = 1;
const notExported = () => 2;
`,
    'src/ui.tsx',
  );
  t.deepEqual(titles(snippets), ['add()', 'handler()', 'Button', 'TIMEOUT']);
  t.is(titled(snippets, 'add()')?.code, 'export const add = (a: number, b: number): number =>');
  t.is(titled(snippets, 'handler()')?.code, 'export const handler = async function handle(req: Request)');
  t.is(titled(snippets, 'Button')?.code, 'export const Button = forwardRef<HTMLButtonElement, Props>((props, ref) => …)');
  t.is(titled(snippets, 'TIMEOUT')?.code, 'export const TIMEOUT = 5000');
});

test('declaration files: everything is API, namespaces qualify names, ambient modules are walked', (t) => {
  const snippets = ts(
    `
declare namespace ts {
  /** Parses a file. */
  function createSourceFile(fileName: string, text: string): SourceFile;
  interface SourceFile { text: string }
  namespace server.protocol {
    /** A request. */
    interface Request { seq: number }
  }
}
declare module 'koa' {
  /** Koa's context. */
  interface Context { state: unknown }
}
declare class Layer {
  /** @private */
  constructor(path: string);
  /** Match a path. */
  match(path: string): boolean;
}
declare const Router: RouterConstructor;
export { Router };
`,
    'dist/index.d.ts',
  );
  t.deepEqual(titles(snippets), [
    'ts.createSourceFile()',
    'interface ts.SourceFile',
    'interface ts.server.protocol.Request',
    'interface Context',
    'class Layer',
    'Layer.match()',
    'Router',
  ]);
  t.deepEqual(titled(snippets, 'ts.createSourceFile()')?.breadcrumb, ['dist/index', 'namespace ts', 'ts.createSourceFile()']);
  t.deepEqual(titled(snippets, 'interface ts.server.protocol.Request')?.breadcrumb, [
    'dist/index',
    'namespace ts',
    'namespace ts.server.protocol',
    'interface ts.server.protocol.Request',
  ]);
  t.deepEqual(titled(snippets, 'interface Context')?.breadcrumb, ['dist/index', "module 'koa'", 'interface Context']);
  t.is(titled(snippets, 'class Layer')?.code, 'declare class Layer {\n  match(path: string): boolean;\n}');
  t.is(titled(snippets, 'Router')?.code, 'declare const Router: RouterConstructor');
});

test("tsc's `_default` stands for the default export and takes the file's name", (t) => {
  const snippets = ts('/** The plugin. */\ndeclare const _default: { install(app: App): void };\nexport default _default;\n', 'dist/plugin.d.ts');
  t.deepEqual(titles(snippets), ['plugin']);
  t.is(snippets[0].code, 'declare const _default: { install(app: App): void }');
});

test('decorated classes keep their decorators and start on the first decorator line', (t) => {
  const [snippet] = ts('\n/** A service. */\n@Injectable({ providedIn: "root" })\nexport class Api {\n  get(url: string) { return url; }\n}\n');
  t.is(snippet.startLine, 3);
  t.true(snippet.code.startsWith('@Injectable({ providedIn: "root" })\nexport class Api {'));
});

test("license headers and file overviews are not taken as the first declaration's doc", (t) => {
  const [snippet] = ts('/**\n * @license MIT\n * Copyright (c) Someone\n */\nexport function first() {}\n');
  t.is(snippet.description, '');
});

test('malformed input never throws and still yields what it can', (t) => {
  const inputs = [
    '',
    'export function broken(a: string {\n  return a\n',
    '/** Unclosed comment\nexport const x = 1',
    'export class { ]]] }}} ((( /** */',
    '\u0000\u0001\u0002binary\uFFFD',
    'export default',
    'module.exports = ',
    '/** A. */\nexport function ok() {}\nexport function broken( {{{',
  ];
  for (const text of inputs) t.notThrows(() => ts(text));
  t.true(titles(ts(inputs[7])).includes('ok()'));
});
