/**
 * generateDocs for TypeScript/JavaScript: exported declarations with their doc comments,
 * signatures (bodies removed) and `@example` blocks, read with the TypeScript compiler API
 * (`createSourceFile` only: no program, no type checker, so it is fast).
 */
import ts from 'typescript';
import type { ParsedSnippet } from '../types';

export function snippetsFromTypeScript(doc: { path: string; text: string }): ParsedSnippet[] {
  const kind = /\.(tsx|jsx)$/.test(doc.path) ? ts.ScriptKind.TSX : /\.(m|c)?js$/.test(doc.path) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(doc.path, doc.text, ts.ScriptTarget.Latest, true, kind);
  const language = kind === ts.ScriptKind.JS || /\.jsx$/.test(doc.path) ? 'javascript' : 'typescript';
  const module = doc.path.replace(/\.(d\.)?[mc]?[jt]sx?$/, '');
  const out: ParsedSnippet[] = [];
  const add = (node: ts.Node, name: string, signature: string) => {
    const docs = jsDocOf(node);
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    const base = { breadcrumb: [module, name], pageTitle: module, path: doc.path, startLine: line, content: '' };
    out.push({ ...base, kind: 'code', title: name, description: docs.text, language, code: signature.trim() });
    for (const example of docs.examples) out.push({ ...base, kind: 'code', title: `${name} example`, description: docs.text.split('\n')[0] ?? '', language, code: example });
  };
  const text = (node: ts.Node) => doc.text.slice(node.getStart(sf), node.getEnd());
  const header = (node: ts.Node & { body?: ts.Node }) => (node.body ? doc.text.slice(node.getStart(sf), node.body.getStart(sf)).trim() : text(node));

  for (const st of sf.statements) {
    const exported = hasExport(st);
    if (ts.isFunctionDeclaration(st) && st.name && (exported || hasDoc(st))) add(st, `${st.name.text}()`, header(st));
    else if (ts.isClassDeclaration(st) && st.name && (exported || hasDoc(st))) {
      const members = st.members.filter((m) => !isPrivate(m)).map((m) => `  ${ts.isMethodDeclaration(m) || ts.isConstructorDeclaration(m) ? header(m as ts.MethodDeclaration) : text(m)}`.split('\n')[0]);
      add(st, `class ${st.name.text}`, `${doc.text.slice(st.getStart(sf), st.members.pos).trim()}\n${members.join('\n')}\n}`);
      for (const m of st.members) {
        if (ts.isMethodDeclaration(m) && m.name && ts.isIdentifier(m.name) && !isPrivate(m) && hasDoc(m)) add(m, `${st.name.text}.${m.name.text}()`, header(m));
      }
    } else if ((ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st)) && (exported || hasDoc(st))) {
      add(st, `${ts.isEnumDeclaration(st) ? 'enum' : 'type'} ${st.name.text}`, text(st).split('\n').slice(0, 60).join('\n'));
    } else if (ts.isVariableStatement(st) && (exported || hasDoc(st))) {
      for (const d of st.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) continue;
        const init = d.initializer;
        const fn = init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? init : undefined;
        add(st, fn ? `${d.name.text}()` : d.name.text, fn ? doc.text.slice(st.getStart(sf), fn.body.getStart(sf)).trim() : text(st).split('\n').slice(0, 20).join('\n'));
      }
    } else if (ts.isExpressionStatement(st) && ts.isBinaryExpression(st.expression) && hasDoc(st)) {
      // CommonJS: module.exports.x = / exports.x = / Foo.prototype.x = function (...) {...}
      const left = st.expression.left.getText(sf);
      const right = st.expression.right;
      if (/^(module\.)?exports(\.|$)|\.prototype\.|^\w+\.\w+$/.test(left)) {
        const fn = ts.isFunctionExpression(right) || ts.isArrowFunction(right) ? right : undefined;
        add(st, `${left.replace(/^module\.exports\.?|^exports\./, '').replace('.prototype', '') || left}${fn ? '()' : ''}`, fn ? doc.text.slice(st.getStart(sf), fn.body.getStart(sf)).trim() : text(st).split('\n').slice(0, 20).join('\n'));
      }
    }
  }
  return out;
}

function hasExport(node: ts.Node): boolean {
  return (ts.canHaveModifiers(node) ? ts.getModifiers(node) ?? [] : []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function isPrivate(node: ts.Node): boolean {
  const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) ?? [] : [];
  const name = (node as { name?: ts.Node }).name;
  return mods.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword) || (name !== undefined && ts.isPrivateIdentifier(name)) || (name !== undefined && ts.isIdentifier(name) && name.text.startsWith('_'));
}

function hasDoc(node: ts.Node): boolean {
  return ts.getJSDocCommentsAndTags(node).length > 0;
}

function jsDocOf(node: ts.Node): { text: string; examples: string[] } {
  const parts: string[] = [];
  const examples: string[] = [];
  for (const d of ts.getJSDocCommentsAndTags(node)) {
    if (!ts.isJSDoc(d)) continue;
    const comment = ts.getTextOfJSDocComment(d.comment);
    if (comment) parts.push(comment.trim());
    for (const tag of d.tags ?? []) {
      const body = (ts.getTextOfJSDocComment(tag.comment) ?? '').trim();
      const name = tag.tagName.text;
      if (name === 'example') examples.push(body.replace(/^```\w*\n?|```$/g, '').trim());
      else if (name === 'param' && ts.isJSDocParameterTag(tag)) parts.push(`@param ${tag.name.getText()} ${body}`.trim());
      else if (name === 'returns' || name === 'return') parts.push(`@returns ${body}`.trim());
      else if (name === 'deprecated') parts.push(`@deprecated ${body}`.trim());
    }
  }
  return { text: parts.join('\n').slice(0, 800), examples: examples.filter(Boolean) };
}
