/**
 * generateDocs for TypeScript and JavaScript: exported declarations with their doc comments,
 * signatures (bodies removed) and `@example` blocks, read with `ts.createSourceFile` only (no
 * program, no type checker), so a file costs about as much as parsing it once.
 *
 * What counts as documented API: exported declarations (modifier, export list, default
 * export, CommonJS `module.exports`/`exports.x`), every declaration of a `.d.ts` or an ambient
 * namespace/module, and in scripts that export nothing, documented top-level functions,
 * classes and types.
 * `startLine` is the declaration's own first line (its first decorator or modifier), not its
 * doc comment's, so links land on the code.
 */
import ts from 'typescript';
import type { ParsedSnippet } from '../types';
import { symbolSnippets } from './snippet';
import { addSymbol, isExported, isVisible, type FileContext, type Scope } from './ts-context';
import { docCommentOf, isHiddenDoc } from './ts-doc';
import { assignmentChain, collectExports, hasDeclareModifier, hasDefaultModifier, hasExportModifier, isCommonJsExports, isCommonJsMember } from './ts-exports';
import { visitClass, visitInterfaceMethods, visitObjectMembers } from './ts-members';
import { declarationOf, headerOf, isFunctionLike, unwrapExpression, variableSignature } from './ts-signature';

const SCRIPT_EXTENSION = /(\.d)?\.([mc]?[jt]sx?)$/;
/** Alias names of a CommonJS exports object that say less than the file's name. */
const GENERIC_ALIAS = /^(proto|prototype|exports|module|self|obj|that)$/;

/**
 * Snippets for the public API of one TypeScript or JavaScript file (.ts .tsx .mts .cts .d.ts
 * .js .jsx .mjs .cjs). Never throws: a file that cannot be read yields what was found before
 * the problem.
 */
export function snippetsFromTypeScript(doc: { path: string; text: string }): ParsedSnippet[] {
  const ctx = createContext(doc);
  try {
    const scope: Scope = { prefix: '', containers: [], ambient: ctx.declarationFile, topLevel: true };
    visitStatements(ctx, ctx.sf.statements, scope);
  } catch {
    // Malformed input that trips the walker still yields the symbols found before it.
  }
  return ctx.symbols.flatMap((s) => symbolSnippets(ctx.ref, s));
}

function createContext(doc: { path: string; text: string }): FileContext {
  const ext = SCRIPT_EXTENSION.exec(doc.path)?.[2] ?? 'ts';
  const isJs = ext.includes('js');
  const kind = ext.endsWith('x') ? (isJs ? ts.ScriptKind.JSX : ts.ScriptKind.TSX) : isJs ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(doc.path, doc.text, ts.ScriptTarget.Latest, false, kind);
  const module = doc.path.replace(SCRIPT_EXTENSION, '');
  const parts = module.split('/');
  const base = parts[parts.length - 1] ?? module;
  return {
    sf,
    ref: { path: doc.path, module },
    language: isJs ? 'javascript' : 'typescript',
    declarationFile: /\.d\.[mc]?ts$/.test(doc.path),
    exports: collectExports(sf),
    defaultName: base === 'index' && parts.length > 1 ? parts[parts.length - 2] : base,
    symbols: [],
  };
}

function visitStatements(ctx: FileContext, statements: readonly ts.Statement[], scope: Scope): void {
  for (let i = 0; i < statements.length; i++) {
    const st = statements[i];
    if (ts.isFunctionDeclaration(st)) {
      const group = [st];
      while (st.name && i + 1 < statements.length) {
        const next = statements[i + 1];
        if (!ts.isFunctionDeclaration(next) || next.name?.text !== st.name.text) break;
        group.push(next);
        i++;
      }
      visitFunction(ctx, scope, group);
    } else if (ts.isClassDeclaration(st)) {
      const name = st.name?.text ?? (hasDefaultModifier(st) ? ctx.defaultName : '');
      const doc = docCommentOf(ctx.sf, st);
      if (name && isVisible(ctx, scope, st, name, doc, false)) visitClass(ctx, scope.containers, st, scope.prefix + name, doc);
    } else if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st)) {
      visitTypeDeclaration(ctx, scope, st);
    } else if (ts.isVariableStatement(st)) {
      visitVariables(ctx, scope, st);
    } else if (ts.isExpressionStatement(st) && scope.topLevel) {
      visitCommonJs(ctx, scope, st);
    } else if (ts.isExportAssignment(st)) {
      visitExportedValue(ctx, scope, st, unwrapExpression(st.expression), ctx.defaultName);
    } else if (ts.isModuleDeclaration(st)) {
      visitNamespace(ctx, scope, st, false);
    }
  }
}

/** A function and its overloads: one symbol whose code lists each public signature. */
function visitFunction(ctx: FileContext, scope: Scope, group: ts.FunctionDeclaration[]): void {
  const first = group[0];
  const name = first.name?.text ?? (hasDefaultModifier(first) ? ctx.defaultName : '');
  const docs = group.map((f) => docCommentOf(ctx.sf, f));
  const doc = docs.find((d) => d !== undefined);
  if (!name || !isVisible(ctx, scope, first, name, doc, false)) return;
  const overloads = group.filter((f) => !f.body);
  const shown = overloads.length > 0 && overloads.length < group.length ? overloads : group;
  addSymbol(ctx, scope.containers, first, `${scope.prefix}${name}()`, docs, shown.map((f) => headerOf(ctx.sf, f)).join('\n'));
}

function visitTypeDeclaration(ctx: FileContext, scope: Scope, st: ts.InterfaceDeclaration | ts.TypeAliasDeclaration | ts.EnumDeclaration): void {
  const name = st.name.text;
  const doc = docCommentOf(ctx.sf, st);
  if (!isVisible(ctx, scope, st, name, doc, false)) return;
  const keyword = ts.isInterfaceDeclaration(st) ? 'interface' : ts.isEnumDeclaration(st) ? 'enum' : 'type';
  const title = `${keyword} ${scope.prefix}${name}`;
  addSymbol(ctx, scope.containers, st, title, [doc], declarationOf(ctx.sf, st));
  if (ts.isInterfaceDeclaration(st)) visitInterfaceMethods(ctx, [...scope.containers, title], st, scope.prefix + name);
}

/**
 * `const f = (…) => …` is a function; `const C = class …` a class; `const proto =
 * module.exports = {…}` an exported object whose members are the API; anything else a
 * variable, kept when documented (or declared in a `.d.ts` and exported).
 */
function visitVariables(ctx: FileContext, scope: Scope, st: ts.VariableStatement): void {
  const doc = docCommentOf(ctx.sf, st);
  const single = st.declarationList.declarations.length === 1;
  for (const decl of st.declarationList.declarations) {
    if (!ts.isIdentifier(decl.name) || (!decl.initializer && !ctx.declarationFile && !scope.ambient)) continue;
    // tsc declares an anonymous default export as `declare const _default: …; export default _default;`.
    const name = decl.name.text === '_default' && ctx.exports.names.has('_default') ? ctx.defaultName : decl.name.text;
    if (name !== decl.name.text) ctx.exports.names.add(name);
    const chain = decl.initializer ? assignmentChain(decl.initializer) : undefined;
    const isAlias = chain?.targets.some(isCommonJsExports) ?? false;
    const value = chain ? chain.value : decl.initializer && unwrapExpression(decl.initializer);
    const exported = isAlias || isExported(ctx, scope, st, name);
    if (isFunctionLike(value) || (value && ts.isClassExpression(value))) {
      if (!isVisible(ctx, scope, st, name, doc, false) && !isAlias) continue;
      if (isFunctionLike(value))
        addSymbol(ctx, scope.containers, st, `${scope.prefix}${name}()`, [doc], headerOf(ctx.sf, value, single ? st.getStart(ctx.sf) : decl.getStart(ctx.sf)));
      else visitClass(ctx, scope.containers, value, scope.prefix + name, doc);
    } else if (
      value &&
      ts.isObjectLiteralExpression(value) &&
      exported &&
      value.properties.some(
        (p) => ts.isMethodDeclaration(p) || ts.isAccessor(p) || (ts.isPropertyAssignment(p) && isFunctionLike(unwrapExpression(p.initializer))),
      )
    ) {
      if (!isHiddenDoc(doc)) visitObjectMembers(ctx, scope.containers, value, isAlias && GENERIC_ALIAS.test(name) ? ctx.defaultName : scope.prefix + name);
    } else if (isVisible(ctx, scope, st, name, doc, true) && (doc !== undefined || (ctx.declarationFile && exported))) {
      addSymbol(ctx, scope.containers, st, `${scope.prefix}${name}`, [doc], variableSignature(ctx.sf, st, decl));
    }
  }
}

/**
 * CommonJS: `module.exports = …` (a function, class or object of functions),
 * `exports.name = …`, and documented methods added to an exported constructor or object
 * (`Router.prototype.use = function …`, `proto.use = function …`).
 */
function visitCommonJs(ctx: FileContext, scope: Scope, st: ts.ExpressionStatement): void {
  const chain = assignmentChain(st.expression);
  if (!chain) return;
  const doc = docCommentOf(ctx.sf, st);
  if (isHiddenDoc(doc)) return;
  const { value } = chain;
  if (chain.targets.some(isCommonJsExports)) {
    visitExportedValue(ctx, scope, st, value, ctx.defaultName);
    return;
  }
  const target = chain.targets[0];
  if (isCommonJsMember(target)) {
    const name = target.name.text;
    if (ts.isIdentifier(value) || name.startsWith('_')) return;
    if (isFunctionLike(value) || ts.isClassExpression(value) || ts.isObjectLiteralExpression(value)) visitExportedValue(ctx, scope, st, value, name);
    else if (doc) addSymbol(ctx, scope.containers, st, name, [doc], ctx.sf.text.slice(st.getStart(ctx.sf), st.getEnd()).split('\n').slice(0, 20).join('\n'));
    return;
  }
  if (!doc || !ts.isPropertyAccessExpression(target) || target.name.text.startsWith('_')) return;
  const owner = target.expression;
  const root = ts.isPropertyAccessExpression(owner) && owner.name.text === 'prototype' ? owner.expression : owner;
  if (!ts.isIdentifier(root)) return;
  const isAlias = ctx.exports.aliases.has(root.text);
  if (!isAlias && !ctx.exports.names.has(root.text) && ctx.exports.hasExports) return;
  const ownerName = isAlias && GENERIC_ALIAS.test(root.text) ? ctx.defaultName : root.text;
  const fn = isFunctionLike(value) ? value : undefined;
  const code = fn ? headerOf(ctx.sf, fn, st.getStart(ctx.sf)) : ctx.sf.text.slice(st.getStart(ctx.sf), st.getEnd()).split('\n')[0];
  addSymbol(ctx, [...scope.containers, ownerName], st, `${ownerName}.${target.name.text}${fn ? '()' : ''}`, [doc], code);
}

/** The value of a default or CommonJS export: a function, a class, or an object of functions. */
function visitExportedValue(ctx: FileContext, scope: Scope, st: ts.Statement, value: ts.Expression, fallbackName: string): void {
  const doc = docCommentOf(ctx.sf, st);
  if (isHiddenDoc(doc)) return;
  if (isFunctionLike(value)) {
    const name = (ts.isFunctionExpression(value) && value.name?.text) || fallbackName;
    addSymbol(ctx, scope.containers, st, `${name}()`, [doc], headerOf(ctx.sf, value, st.getStart(ctx.sf)));
  } else if (ts.isClassExpression(value)) {
    visitClass(ctx, scope.containers, value, value.name?.text ?? fallbackName, doc);
  } else if (ts.isObjectLiteralExpression(value)) {
    visitObjectMembers(ctx, scope.containers, value, fallbackName);
  }
}

/**
 * `namespace A.B {}`, `declare namespace ts {}`, `declare module 'x' {}` and `declare global {}`:
 * their members are qualified by the namespace name; ambient ones export everything.
 */
function visitNamespace(ctx: FileContext, scope: Scope, st: ts.ModuleDeclaration, parentVisible: boolean): void {
  const name = st.name.text;
  const isNamed = ts.isIdentifier(st.name) && name !== 'global';
  const ambient = scope.ambient || hasDeclareModifier(st) || !isNamed;
  const doc = docCommentOf(ctx.sf, st);
  if (!parentVisible && !ambient && !hasExportModifier(st) && !(scope.topLevel && ctx.exports.names.has(name)) && !doc) return;
  if (isHiddenDoc(doc) || !st.body) return;
  const inner: Scope = {
    prefix: isNamed ? `${scope.prefix}${name}.` : scope.prefix,
    containers: [...scope.containers, isNamed ? `namespace ${scope.prefix}${name}` : name === 'global' ? 'global' : `module '${name}'`],
    ambient,
    topLevel: false,
  };
  if (ts.isModuleDeclaration(st.body)) visitNamespace(ctx, { ...inner, containers: scope.containers }, st.body, true);
  else if (ts.isModuleBlock(st.body)) visitStatements(ctx, st.body.statements, inner);
}
