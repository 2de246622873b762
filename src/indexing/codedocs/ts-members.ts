/**
 * Members of classes, interfaces and exported object literals. A class always gets an outline
 * snippet; its members get their own snippets only when documented (the undocumented ones are
 * in the outline already, and a bare signature says nothing more there).
 */
import ts from 'typescript';
import { addSymbol, isPublicMember, memberName, type FileContext } from './ts-context';
import { docCommentOf, isHiddenDoc, type DocComment } from './ts-doc';
import { classOutline, headerOf, isFunctionLike, memberSignature, unwrapExpression } from './ts-signature';

/** A class: its outline, then each documented public member. `owner` is its qualified name. */
export function visitClass(ctx: FileContext, containers: string[], node: ts.ClassLikeDeclaration, owner: string, doc: DocComment | undefined): void {
  const title = `class ${owner}`;
  addSymbol(
    ctx,
    containers,
    node,
    title,
    [doc],
    classOutline(ctx.sf, node, (m) => isPublicMember(ctx.sf, m)),
  );
  const inner = [...containers, title];
  for (const group of groupMembers(ctx.sf, node.members)) {
    const first = group[0];
    const docs = group.map((m) => docCommentOf(ctx.sf, m));
    if (!docs.some(Boolean) || !isPublicMember(ctx.sf, first)) continue;
    const name = memberName(ctx.sf, first) ?? '';
    let memberTitle: string;
    if (ts.isConstructorDeclaration(first)) memberTitle = `new ${owner}()`;
    else if (ts.isMethodDeclaration(first)) memberTitle = `${owner}.${name}()`;
    else if (ts.isAccessor(first) || ts.isPropertyDeclaration(first)) memberTitle = `${owner}.${name}`;
    else continue;
    addSymbol(ctx, inner, first, memberTitle, docs, overloadSignatures(ctx.sf, group));
  }
}

/** The documented method signatures of an interface (its properties are in its own snippet). */
export function visitInterfaceMethods(ctx: FileContext, containers: string[], node: ts.InterfaceDeclaration, owner: string): void {
  for (const group of groupMembers(ctx.sf, node.members)) {
    const first = group[0];
    if (!ts.isMethodSignature(first)) continue;
    const docs = group.map((m) => docCommentOf(ctx.sf, m));
    const name = memberName(ctx.sf, first) ?? '';
    if (!docs.some(Boolean) || docs.some(isHiddenDoc) || name.startsWith('_')) continue;
    addSymbol(ctx, containers, first, `${owner}.${name}()`, docs, group.map((m) => ctx.sf.text.slice(m.getStart(ctx.sf), m.getEnd()).trim()).join('\n'));
  }
}

/**
 * The members of an object literal that is a module's export (`module.exports = {…}`,
 * `export default {…}`): functions and accessors always, other values when documented.
 */
export function visitObjectMembers(ctx: FileContext, containers: string[], node: ts.ObjectLiteralExpression, owner: string): void {
  const inner = [...containers, owner];
  for (const group of groupMembers(ctx.sf, node.properties)) {
    const first = group[0];
    const docs = group.map((m) => docCommentOf(ctx.sf, m));
    const name = memberName(ctx.sf, first);
    if (name === undefined || name.startsWith('_') || docs.some(isHiddenDoc) || ts.isShorthandPropertyAssignment(first) || ts.isSpreadAssignment(first))
      continue;
    const init = ts.isPropertyAssignment(first) ? unwrapExpression(first.initializer) : undefined;
    const isFunction = ts.isMethodDeclaration(first) || isFunctionLike(init);
    if (!isFunction && !ts.isAccessor(first) && !docs.some(Boolean)) continue;
    const code = group
      .map((m) => {
        const value = ts.isPropertyAssignment(m) ? unwrapExpression(m.initializer) : undefined;
        return isFunctionLike(value) ? headerOf(ctx.sf, value, m.getStart(ctx.sf)) : memberSignature(ctx.sf, m).replace(/;$/, '');
      })
      .join('\n');
    addSymbol(ctx, inner, first, isFunction ? `${owner}.${name}()` : `${owner}.${name}`, docs, code);
  }
}

/**
 * Members grouped by name in source order, so overloads and get/set pairs become one symbol.
 * Of overloads with an implementation, only the overload signatures are public.
 */
function groupMembers<T extends ts.Node>(sf: ts.SourceFile, members: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  members.forEach((m, i) => {
    const name = memberName(sf, m);
    const isStatic = ts.canHaveModifiers(m) && (ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword) ?? false);
    const kind = ts.isConstructorDeclaration(m) ? 'new' : `${isStatic ? 'static ' : ''}${ts.isAccessor(m) ? 'accessor' : 'member'}`;
    const key = name === undefined && kind !== 'new' ? `#${i}` : `${kind}:${name ?? ''}`;
    const group = groups.get(key);
    if (group) group.push(m);
    else groups.set(key, [m]);
  });
  return [...groups.values()];
}

/** One signature per overload; an implementation signature is left out when overloads exist. */
function overloadSignatures(sf: ts.SourceFile, group: ts.ClassElement[]): string {
  const withBody = (m: ts.Node) => (m as { body?: ts.Node }).body !== undefined;
  const overloads = group.filter((m) => !withBody(m));
  const shown = overloads.length > 0 && overloads.length < group.length && !group.some(ts.isAccessor) ? overloads : group;
  return shown.map((m) => memberSignature(sf, m).replace(/;$/, '')).join('\n');
}
