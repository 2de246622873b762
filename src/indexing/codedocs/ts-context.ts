/** The state shared while one TypeScript/JavaScript file is walked, and who counts as public. */
import ts from 'typescript';
import type { ModuleExports } from './ts-exports';
import type { ModuleRef, SymbolDoc } from './snippet';
import { docCommentOf, docExamples, isHiddenDoc, renderDocDescription, type DocComment } from './ts-doc';
import { hasExportModifier } from './ts-exports';

/** One file being walked. */
export interface FileContext {
  sf: ts.SourceFile;
  ref: ModuleRef;
  /** "typescript" or "javascript". */
  language: string;
  /** A `.d.ts`: every declaration in it describes the package's API. */
  declarationFile: boolean;
  exports: ModuleExports;
  /** The name of anonymous default exports and CommonJS export objects: the file's name. */
  defaultName: string;
  symbols: SymbolDoc[];
}

/** Where a declaration sits: top level, or inside a namespace or ambient module. */
export interface Scope {
  /** "ts." inside `namespace ts`. */
  prefix: string;
  containers: string[];
  /** Inside a declaration file, `declare namespace` or `declare module`: everything is API. */
  ambient: boolean;
  topLevel: boolean;
}

/** Records a symbol with the description and examples of its doc comments (overloads may each have one). */
export function addSymbol(ctx: FileContext, containers: string[], node: ts.Node, title: string, docs: (DocComment | undefined)[], code: string): void {
  const documented = docs.filter((d): d is DocComment => d !== undefined);
  const examples = documented.flatMap(docExamples).map((e) => ({
    code: e.code,
    language: exampleLanguage(e.language, ctx.language),
    caption: e.caption,
    line: e.line + 1,
  }));
  ctx.symbols.push({
    title,
    containers,
    description: renderDocDescription(documented[0]),
    code: code.trim(),
    language: ctx.language,
    line: ctx.sf.getLineAndCharacterOfPosition(node.getStart(ctx.sf)).line + 1,
    examples,
  });
}

/**
 * Whether a top-level or namespace declaration is documented: exported ones always,
 * everything in ambient scopes (declaration files), and, in scripts that export nothing
 * (browser scripts, globals), documented declarations that are not variables. A module's
 * unexported helpers are implementation, however well commented. Names starting with `_`
 * and doc comments tagged @internal/@private/@ignore/`@api private` are never documented.
 */
export function isVisible(ctx: FileContext, scope: Scope, node: ts.Node, name: string, doc: DocComment | undefined, isVariable: boolean): boolean {
  if (name.startsWith('_') || isHiddenDoc(doc)) return false;
  if (scope.ambient || isExported(ctx, scope, node, name)) return true;
  return !isVariable && doc !== undefined && scope.topLevel && !ctx.exports.hasExports;
}

/** Exported by a modifier, or (at the top level) by an export list or CommonJS assignment. */
export function isExported(ctx: FileContext, scope: Scope, node: ts.Node, name: string): boolean {
  return hasExportModifier(node) || (scope.topLevel && ctx.exports.names.has(name));
}

/** Public class or object members: not private/protected, not `#x` or `_x`, not hidden by a tag. */
export function isPublicMember(sf: ts.SourceFile, member: ts.Node): boolean {
  const mods = ts.canHaveModifiers(member) ? ts.getModifiers(member) : undefined;
  if (mods?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) return false;
  const name = memberName(sf, member);
  if (name === undefined ? !ts.isConstructorDeclaration(member) && !ts.isIndexSignatureDeclaration(member) : name.startsWith('_') || name.startsWith('#'))
    return false;
  return !isHiddenDoc(docCommentOf(sf, member));
}

/** A member's name as written (`use`, `[Symbol.iterator]`, `'content-type'`), if it has one. */
export function memberName(sf: ts.SourceFile, member: ts.Node): string | undefined {
  const name = (member as { name?: ts.Node }).name;
  if (name === undefined) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText(sf);
}

/** A fence's language as the generated snippets spell it; none means the file's language. */
export function exampleLanguage(fence: string, fileLanguage: string): string {
  if (fence === '') return fileLanguage;
  if (/^(ts|tsx|typescript|mts|cts)$/.test(fence)) return 'typescript';
  if (/^(js|jsx|javascript|mjs|cjs|node)$/.test(fence)) return 'javascript';
  return fence;
}
