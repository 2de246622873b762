/**
 * generateDocs for Python: public top-level and class-level `def`/`class` with decorators,
 * full (multi-line) signatures and docstrings; `>>>` examples become their own snippets.
 * A line scanner (no Python parser in Node): brackets are balanced outside strings.
 */
import type { ParsedSnippet } from '../types';

export function snippetsFromPython(doc: { path: string; text: string }): ParsedSnippet[] {
  const lines = doc.text.replace(/\r\n?/g, '\n').split('\n');
  const module = doc.path.replace(/\.py$/, '').replace(/\/__init__$/, '').replace(/\//g, '.');
  const exported = allNames(doc.text);
  const out: ParsedSnippet[] = [];
  const classStack: { name: string; indent: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(async\s+def|def|class)\s+([A-Za-z_]\w*)/.exec(lines[i]);
    if (!m) continue;
    const indent = m[1].length;
    while (classStack.length > 0 && classStack[classStack.length - 1].indent >= indent) classStack.pop();
    const owner = classStack[classStack.length - 1];
    if (indent > 0 && (!owner || indent !== owner.indent + 4 && indent !== owner.indent + 2)) continue;
    const name = m[3];
    const isClass = m[2] === 'class';
    if (isClass) classStack.push({ name, indent });
    const isPublic = !name.startsWith('_') && (indent > 0 || !exported || exported.has(name));
    // Decorators above, signature to the line ending the header.
    let d = i;
    while (d > 0 && /^\s*@/.test(lines[d - 1])) d--;
    const end = headerEnd(lines, i);
    const signature = lines.slice(d, end + 1).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n');
    const docstring = readDocstring(lines, end + 1);
    if (!isPublic || (!docstring && indent > 0)) continue;
    const title = isClass ? `class ${name}` : owner ? `${owner.name}.${name}()` : `${name}()`;
    const description = (docstring ?? '').replace(/:[\w:]+:`~?([^`]+)`/g, '`$1`').split(/\n\s*(?:>>>|Examples?:?\n)/)[0].trim().slice(0, 800);
    const base = { breadcrumb: [module, title], pageTitle: module, path: doc.path, startLine: i + 1, content: '' };
    let code = signature;
    if (isClass) {
      const methods: string[] = [];
      for (let k = end + 1; k < lines.length; k++) {
        const mm = /^(\s*)(async\s+def|def)\s+([A-Za-z_]\w*)/.exec(lines[k]);
        if (lines[k].trim() && lines[k].search(/\S/) <= indent) break;
        if (mm && mm[1].length === indent + 4 && (!mm[3].startsWith('_') || mm[3] === '__init__')) methods.push(lines.slice(k, headerEnd(lines, k) + 1).join('\n'));
      }
      code = [signature, ...methods].join('\n');
    }
    out.push({ ...base, kind: 'code', title, description, language: 'python', code });
    for (const example of doctests(docstring ?? '')) out.push({ ...base, kind: 'code', title: `${title} example`, description: description.split('\n')[0] ?? '', language: 'pycon', code: example });
  }
  return out;
}

/** The line where a def/class header ends (its `:` outside brackets and strings). */
function headerEnd(lines: string[], start: number): number {
  let depth = 0;
  for (let i = start; i < Math.min(lines.length, start + 60); i++) {
    let quote: string | undefined;
    const l = lines[i];
    for (let k = 0; k < l.length; k++) {
      const c = l[k];
      if (quote) {
        if (c === '\\') k++;
        else if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '#') break;
      else if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) depth--;
    }
    if (depth <= 0 && /:\s*(#.*)?$/.test(l)) return i;
  }
  return start;
}

function readDocstring(lines: string[], from: number): string | undefined {
  let i = from;
  while (i < lines.length && lines[i].trim() === '') i++;
  const m = /^\s*[rRbBuU]?("""|''')(.*)$/.exec(lines[i] ?? '');
  if (!m) return undefined;
  const q = m[1];
  if (m[2].includes(q)) return m[2].slice(0, m[2].indexOf(q)).trim();
  const body = [m[2]];
  for (let k = i + 1; k < lines.length && k < i + 300; k++) {
    const idx = lines[k].indexOf(q);
    if (idx !== -1) {
      body.push(lines[k].slice(0, idx));
      break;
    }
    body.push(lines[k]);
  }
  const indent = Math.min(...body.slice(1).filter((l) => l.trim()).map((l) => l.search(/\S/)), 1000);
  return [body[0], ...body.slice(1).map((l) => l.slice(Math.min(indent, l.length)))].join('\n').trim();
}

function doctests(docstring: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  for (const line of docstring.split('\n')) {
    if (/^\s*(>>>|\.\.\.)/.test(line) || (current.length > 0 && line.trim() !== '')) current.push(line.trim());
    else if (current.length > 0) {
      blocks.push(current.join('\n'));
      current = [];
    }
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}

function allNames(text: string): Set<string> | undefined {
  const m = /^__all__\s*=\s*[[(]([\s\S]*?)[\])]/m.exec(text);
  if (!m) return undefined;
  return new Set([...m[1].matchAll(/["'](\w+)["']/g)].map((x) => x[1]));
}
