/**
 * Counts what the house rules bound (docs/ARCHITECTURE.md): files of src/ over 300 lines and
 * functions over 80 lines, read from the TypeScript compiler's syntax tree. Prints both
 * counts, then (with --list) each file and function. Tests and the dashboard's vendored
 * browser code are left out. Usage: npx tsx scripts/run/code-size.ts [--list] [dir]
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const FILE_LINES = 300;
const FUNCTION_LINES = 80;

const args = process.argv.slice(2);
const list = args.includes('--list');
const root = path.resolve(args.find((a) => !a.startsWith('--')) ?? 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'vendor' || e.name === 'node_modules' ? [] : sourceFiles(p);
    return /\.(ts|mjs|js)$/.test(e.name) && !/\.test\.[a-z]+$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** A function's name as a reader would look for it (`Class.method`, `const name = () =>`). */
function nameOf(node: ts.Node): string {
  const named = (n: ts.Node): string | undefined => {
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isFunctionExpression(n)) && n.name) return n.name.getText();
    if (ts.isConstructorDeclaration(n)) return 'constructor';
    if (ts.isVariableDeclaration(n) || ts.isPropertyAssignment(n) || ts.isPropertyDeclaration(n)) return n.name.getText();
    return undefined;
  };
  const own = named(node) ?? (node.parent ? named(node.parent) : undefined) ?? '(anonymous)';
  const owner = node.parent && (ts.isClassDeclaration(node.parent) || ts.isClassExpression(node.parent)) ? node.parent.name?.getText() : undefined;
  return owner ? `${owner}.${own}` : own;
}

const longFiles: string[] = [];
const longFunctions: string[] = [];
for (const file of sourceFiles(root)) {
  const text = fs.readFileSync(file, 'utf8');
  const rel = path.relative(process.cwd(), file);
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > FILE_LINES) longFiles.push(`${rel} ${lines}`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > FUNCTION_LINES) longFunctions.push(`${rel}:${start + 1} ${nameOf(node)} ${end - start + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

console.log(`files over ${FILE_LINES} lines: ${longFiles.length}`);
if (list) for (const f of longFiles) console.log(`  ${f}`);
console.log(`functions over ${FUNCTION_LINES} lines: ${longFunctions.length}`);
if (list) for (const f of longFunctions) console.log(`  ${f}`);
