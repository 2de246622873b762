/**
 * The import graph of src/, read from the TypeScript compiler's syntax tree (every
 * `import`/`export … from`, type-only ones included and marked, `import('…')` with a literal,
 * `import('…').T` types), each relative specifier resolved to a file as the bundler does; and
 * the raw mongoose model calls. For the boundary test (import-boundaries.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Importing and imported file, relative to the root given (`store/jobs.ts`). */
  from: string;
  to: string;
  /** `import type …` / `export type … from`: erased at run time. */
  typeOnly: boolean;
}

/** The files under `dir` with one of `extensions`, tests and `skip`ped folders left out. */
export function sourceFiles(dir: string, extensions: readonly string[], skip: readonly string[] = []): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return skip.includes(e.name) ? [] : sourceFiles(p, extensions, skip);
    return extensions.some((x) => e.name.endsWith(x)) && !/\.test\.[a-z]+$/.test(e.name) ? [p] : [];
  });
}

function resolveRelative(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${from}: cannot resolve '${specifier}'`);
}

/** Whether an import or re-export brings in types only (erased at run time). */
function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node))
    return node.isTypeOnly || (!!node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((e) => e.isTypeOnly));
  const clause = node.importClause;
  if (!clause) return false; // import './x': run for its effects
  if (clause.isTypeOnly) return true;
  return (
    !clause.name &&
    !!clause.namedBindings &&
    ts.isNamedImports(clause.namedBindings) &&
    clause.namedBindings.elements.length > 0 &&
    clause.namedBindings.elements.every((e) => e.isTypeOnly)
  );
}

/**
 * Every relative import of `files` (packages and node: builtins are not edges): import and
 * export declarations, and `import('…')` with a literal, from the compiler's syntax tree.
 * Specifiers matching `served` name files the server makes up (the dashboard's /vendor/).
 */
export function importEdges(root: string, files: readonly string[], served?: RegExp): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(
      file,
      fs.readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS,
    );
    const add = (specifier: string, typeOnly: boolean) => {
      if (specifier.startsWith('.') && !served?.test(specifier))
        edges.push({ from: path.relative(root, file), to: path.relative(root, resolveRelative(file, specifier)), typeOnly });
    };
    const visit = (node: ts.Node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
        add(node.moduleSpecifier.text, isTypeOnly(node));
      else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteralLike(node.arguments[0])
      )
        add(node.arguments[0].text, false);
      else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
        add(node.argument.literal.text, true);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

/** The import cycles: strongly connected components of more than one file (Tarjan), each sorted. */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** Mongoose's model statics: a call of one on a model (`deps.Manifest.findById(…)`) is a raw store access. */
const MODEL_STATICS = new Set([
  'aggregate',
  'bulkWrite',
  'countDocuments',
  'create',
  'createIndexes',
  'deleteMany',
  'deleteOne',
  'distinct',
  'estimatedDocumentCount',
  'exists',
  'find',
  'findById',
  'findByIdAndDelete',
  'findByIdAndUpdate',
  'findOne',
  'findOneAndDelete',
  'findOneAndReplace',
  'findOneAndUpdate',
  'hydrate',
  'insertMany',
  'replaceOne',
  'syncIndexes',
  'updateMany',
  'updateOne',
  'watch',
  'where',
]);

/** The names models are registered under in `files` (`conn.model<…>('Manifest', …)`). */
export function modelNames(files: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) for (const m of fs.readFileSync(file, 'utf8').matchAll(/\.model\s*(?:<[^>]*>)?\(\s*'(\w+)'/g)) names.add(m[1]);
  return names;
}

/**
 * Calls of a model static on something named like a model: `Manifest.find(…)`,
 * `deps.Manifest.findById(…)`, `this.User.updateOne(…)`, `services.models.Job.find(…)`.
 * Each as `file:line callee`.
 */
export function modelCalls(root: string, files: readonly string[], models: ReadonlySet<string>): string[] {
  const calls: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && MODEL_STATICS.has(node.expression.name.text)) {
        const target = node.expression.expression;
        const name = ts.isIdentifier(target) ? target.text : ts.isPropertyAccessExpression(target) ? target.name.text : undefined;
        if (name && models.has(name))
          calls.push(`${path.relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.expression.getText()}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return calls;
}
