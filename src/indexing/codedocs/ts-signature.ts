/**
 * Signatures of TypeScript/JavaScript declarations: the source text with bodies removed
 * (functions, methods) or bounded (interfaces, types, class outlines).
 */
import ts from 'typescript';
import { boundLines, dedentFollowing, indent } from './snippet';

/** A node that may have a body: functions, methods, constructors, accessors, arrows. */
type WithBody = ts.Node & { body?: ts.Node };

/** Longest initializer kept verbatim in a property or variable signature. */
const SHORT_INITIALIZER = 80;

/** The source text of `node` from `start` (default: its first decorator or modifier). */
export function sourceOf(sf: ts.SourceFile, node: ts.Node, start = node.getStart(sf)): string {
  return dedentFollowing(sf.text.slice(start, node.getEnd()).trim(), columnOf(sf, start));
}

/**
 * A function-like declaration without its body: `export function f(a: A): B`,
 * `export const f = (a: A): B =>`. `start` lets a variable statement include `export const`.
 */
export function headerOf(sf: ts.SourceFile, node: WithBody, start = node.getStart(sf)): string {
  let end = node.getEnd();
  if (ts.isArrowFunction(node)) end = node.equalsGreaterThanToken.getEnd();
  else if (node.body) end = node.body.getStart(sf);
  const text = sf.text.slice(start, end).trim().replace(/;$/, '');
  return dedentFollowing(text, columnOf(sf, start));
}

/** An interface, type alias or enum, bounded to a readable length. */
export function declarationOf(sf: ts.SourceFile, node: ts.Node): string {
  return boundLines(sourceOf(sf, node));
}

/**
 * A class as its header and the signatures of its public members:
 * `export class Router<S> extends Base {\n  constructor(opts?: Options);\n  use(fn: Middleware): this;\n}`.
 */
export function classOutline(sf: ts.SourceFile, node: ts.ClassLikeDeclaration, isPublic: (m: ts.ClassElement) => boolean): string {
  const start = node.getStart(sf);
  const header = dedentFollowing(sf.text.slice(start, node.members.pos).trim(), columnOf(sf, start));
  const members = node.members.filter((m) => !ts.isSemicolonClassElement(m) && !ts.isClassStaticBlockDeclaration(m) && isPublic(m));
  // Overloads collapse to their first signature: the method's own snippet lists them all.
  const lines: string[] = [];
  let previous = '';
  let more = 0;
  const flush = () => {
    if (more > 0) lines.push(`  // +${more} more overload${more > 1 ? 's' : ''}`);
    more = 0;
  };
  for (const m of members) {
    const key = overloadKey(sf, m);
    if (key !== '' && key === previous) {
      if (!(m as { body?: ts.Node }).body) more++;
      continue;
    }
    flush();
    previous = key;
    lines.push(indent(memberSignature(sf, m), '  '));
  }
  flush();
  return boundLines([header.endsWith('{') ? header : `${header} {`, ...lines, '}'].join('\n'));
}

/** Methods and constructors with the same name and staticness are overloads of each other. */
export function overloadKey(sf: ts.SourceFile, m: ts.ClassElement): string {
  if (!ts.isMethodDeclaration(m) && !ts.isConstructorDeclaration(m)) return '';
  const isStatic = ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword) ?? false;
  return `${isStatic ? 'static ' : ''}${m.name ? m.name.getText(sf) : 'constructor'}`;
}

/** One class member as a line of an outline: bodies dropped, long initializers elided. */
export function memberSignature(sf: ts.SourceFile, member: ts.ClassElement | ts.ObjectLiteralElementLike): string {
  const start = member.getStart(sf);
  if ((ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member) || ts.isAccessor(member)) && member.body) {
    return `${headerOf(sf, member, start)};`;
  }
  if ((ts.isPropertyDeclaration(member) || ts.isPropertyAssignment(member)) && member.initializer) {
    const init = member.initializer;
    const full = sf.text.slice(start, member.getEnd()).trim();
    if (isFunctionLike(init)) return `${dedentFollowing(sf.text.slice(start, init.getStart(sf)), columnOf(sf, start))}${headerOf(sf, init)} …;`;
    if (full.includes('\n') || full.length > SHORT_INITIALIZER) return `${sf.text.slice(start, init.getStart(sf)).trim()} …;`;
    return full.endsWith(';') || full.endsWith(',') ? full.replace(/,$/, ';') : `${full};`;
  }
  const text = sourceOf(sf, member);
  return text.endsWith(';') || text.endsWith('}') ? text : `${text};`;
}

/**
 * A variable whose value is not a plain function: its declaration, with a long initializer
 * cut after the first line, and a function wrapped in a call (`forwardRef((props) => …)`)
 * shown up to that function's body.
 */
export function variableSignature(sf: ts.SourceFile, statement: ts.VariableStatement, decl: ts.VariableDeclaration): string {
  const start = statement.declarationList.declarations.length === 1 ? statement.getStart(sf) : decl.getStart(sf);
  const init = decl.initializer;
  const full = sourceOf(sf, decl.initializer ? decl : statement, start);
  if (!init || (!full.includes('\n') && full.length <= 160)) return full.replace(/;$/, '');
  const wrapped = ts.isCallExpression(init) ? init.arguments.find(isFunctionLike) : undefined;
  if (wrapped) return `${dedentFollowing(sf.text.slice(start, wrapped.getStart(sf)).trim(), columnOf(sf, start))}${headerOf(sf, wrapped)} …)`;
  return boundLines(full, 20);
}

/** Arrow functions and function expressions. */
export function isFunctionLike(node: ts.Node | undefined): node is ts.ArrowFunction | ts.FunctionExpression {
  return node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));
}

/** `(x as T)`, `x satisfies T`, `(x)`, `<T>x` → x. */
export function unwrapExpression(node: ts.Expression): ts.Expression {
  let e = node;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
  return e;
}

function columnOf(sf: ts.SourceFile, pos: number): number {
  return sf.getLineAndCharacterOfPosition(pos).character;
}
