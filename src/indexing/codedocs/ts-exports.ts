/**
 * What a module makes public besides `export` modifiers: export lists, `export default x`,
 * and the CommonJS forms (`module.exports = x`, `exports.a = a`,
 * `const proto = module.exports = {…}`).
 */
import ts from 'typescript';
import { unwrapExpression } from './ts-signature';

/** The public surface of a module as seen from its top-level statements. */
export interface ModuleExports {
  /** Local names made public by an export list, a default export or a CommonJS assignment. */
  names: Set<string>;
  /** Local variables that are the CommonJS exports object itself (`const proto = module.exports = {}`). */
  aliases: Set<string>;
  /** Whether the module exports anything at all (ES or CommonJS). */
  hasExports: boolean;
}

/** An assignment chain `a = b = value` as its targets and its final value. */
export interface AssignmentChain {
  targets: ts.Expression[];
  value: ts.Expression;
}

/** Reads the exports of a source file's top level. */
export function collectExports(sf: ts.SourceFile): ModuleExports {
  const result: ModuleExports = { names: new Set(), aliases: new Set(), hasExports: false };
  for (const st of sf.statements) {
    if (hasExportModifier(st)) result.hasExports = true;
    if (ts.isExportDeclaration(st)) {
      result.hasExports = true;
      if (!st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) result.names.add((el.propertyName ?? el.name).text);
      }
    } else if (ts.isExportAssignment(st)) {
      result.hasExports = true;
      addValueNames(unwrapExpression(st.expression), result.names);
    } else if (ts.isExpressionStatement(st)) {
      const chain = assignmentChain(st.expression);
      if (chain && chain.targets.some(isCommonJsExports)) {
        result.hasExports = true;
        addValueNames(chain.value, result.names);
      } else if (chain && chain.targets.some(isCommonJsMember)) {
        result.hasExports = true;
        if (ts.isIdentifier(chain.value)) result.names.add(chain.value.text);
      }
    } else if (ts.isVariableStatement(st)) {
      for (const decl of st.declarationList.declarations) {
        const chain = decl.initializer && assignmentChain(decl.initializer);
        if (!chain || !ts.isIdentifier(decl.name) || !chain.targets.some(isCommonJsExports)) continue;
        result.hasExports = true;
        result.aliases.add(decl.name.text);
        addValueNames(chain.value, result.names);
      }
    }
  }
  return result;
}

/** `a = b = value` (assignments only) → targets [a, b] and value; undefined for anything else. */
export function assignmentChain(expr: ts.Expression): AssignmentChain | undefined {
  const targets: ts.Expression[] = [];
  let e = unwrapExpression(expr);
  while (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    targets.push(e.left);
    e = unwrapExpression(e.right);
  }
  return targets.length > 0 ? { targets, value: e } : undefined;
}

/** `module.exports` or `exports` (the whole exports object). */
export function isCommonJsExports(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return node.text === 'exports';
  return ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'module' && node.name.text === 'exports';
}

/** `module.exports.name` or `exports.name`: one named CommonJS export. */
export function isCommonJsMember(node: ts.Expression): node is ts.PropertyAccessExpression {
  return ts.isPropertyAccessExpression(node) && isCommonJsExports(node.expression);
}

/** Whether a statement carries `export` (or `export default`). */
export function hasExportModifier(node: ts.Node): boolean {
  const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return mods?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
}

/** Whether a statement carries `export default`. */
export function hasDefaultModifier(node: ts.Node): boolean {
  const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return mods?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) ?? false;
}

/** Whether a declaration carries `declare`. */
export function hasDeclareModifier(node: ts.Node): boolean {
  const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return mods?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword) ?? false;
}

/** `x` → x; `{ a, b: c }` → a, c: the local names an exported value refers to. */
function addValueNames(value: ts.Expression, names: Set<string>): void {
  if (ts.isIdentifier(value)) names.add(value.text);
  else if (ts.isObjectLiteralExpression(value)) {
    for (const p of value.properties) {
      if (ts.isShorthandPropertyAssignment(p)) names.add(p.name.text);
      else if (ts.isPropertyAssignment(p)) {
        const v = unwrapExpression(p.initializer);
        if (ts.isIdentifier(v)) names.add(v.text);
      }
    }
  }
}
