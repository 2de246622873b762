/**
 * reST/Sphinx: `.. literalinclude::` becomes a `.. code-block::` holding the file's lines
 * (`:language:` or the extension, `:lines:`, `:start-after:`/`:end-before:`, `:pyobject:`,
 * `:dedent:`, `:caption:` kept), and `.. include::` splices the file (`:literal:` and
 * `:code:` as a code block, `:start-after:`/`:end-before:`/`:start-line:`/`:end-line:`).
 * Paths are relative to the page; `/path` is relative to the Sphinx source folder (the one
 * holding conf.py). `<isonum.txt>`-style standard includes are left alone.
 */
import path from 'node:path';
import { betweenMarkers, dedent, lineSpec, pythonObject } from './select-lines';
import { indented, languageOf, replaceAsync, type IncludeResolver } from './resolver';

const DIRECTIVE = /^([ \t]*)\.\.[ \t]+(literalinclude|include)::[ \t]*(\S[^\n]*)\n((?:\1[ \t]+:[\w-]+:[^\n]*\n?)*)/gm;

export async function expandSphinx(text: string, r: IncludeResolver): Promise<string> {
  if (!/\.\.\s+(literal)?include::/.test(text)) return text;
  const bases = sourceRoots(r);
  return replaceAsync(text, DIRECTIVE, async (m) => {
    const [whole, indent, name, rawTarget, optionText] = m;
    const target = rawTarget.trim();
    if (target.startsWith('<')) return whole;
    const options = new Map([...optionText.matchAll(/:([\w-]+):[ \t]*([^\n]*)/g)].map((o) => [o[1], o[2].trim()]));
    const resolved = r.locate(target, bases);
    const part = await readPart(r, target, resolved, options);
    if (part === undefined) return whole;
    if (part === '') return '';
    const trailing = whole.endsWith('\n') ? '\n' : '';
    if (name === 'literalinclude' || options.has('literal') || options.has('code')) {
      const language = options.get('language') || options.get('code') || (options.has('literal') ? 'text' : languageOf(target));
      const caption = options.get('caption');
      const code = options.has('dedent') ? dedent(part) : part;
      const inner = `${indent}   `;
      const lines = code
        .replace(/\n+$/, '')
        .split('\n')
        .map((l) => (l.trim() ? inner + l : ''));
      return `${indent}.. code-block:: ${language}\n${caption ? `${inner}:caption: ${caption}\n` : ''}\n${lines.join('\n')}\n${trailing}`;
    }
    const nested = resolved ? await r.within(resolved, () => expandSphinx(part, r)) : part;
    return `${indented(nested, indent)}\n${trailing}`;
  });
}

/**
 * The part of an include's target its options pick: '' for a file discovery leaves out (a
 * changelog or licence reads as nothing, whatever part is asked for); undefined when the file
 * or the part is missing (reported).
 */
export async function readPart(r: IncludeResolver, target: string, resolved: string | undefined, options: Map<string, string>): Promise<string | undefined> {
  const body = await r.load(target, resolved);
  if (body === undefined || body === '') return body;
  const part = selectPart(body, options);
  if (part === undefined) r.problem(target, 'part missing');
  return part;
}

/** The part of an included file its options pick (`:pyobject:`, `:start-line:`/`:end-line:`, `:lines:`, markers); undefined when a named part is missing. */
function selectPart(body: string, o: Map<string, string>): string | undefined {
  let text: string | undefined = body;
  const pyobject = o.get('pyobject');
  if (pyobject) text = pythonObject(text, pyobject);
  if (text !== undefined && (o.has('start-line') || o.has('end-line'))) {
    text = text
      .split('\n')
      .slice(Number(o.get('start-line') ?? 0), o.has('end-line') ? Number(o.get('end-line')) : undefined)
      .join('\n');
  }
  if (text !== undefined && o.get('lines')) text = lineSpec(text, o.get('lines') ?? '');
  if (text !== undefined && (o.get('start-after') || o.get('end-before') || o.get('start-at') || o.get('end-at'))) {
    text = betweenMarkers(text, o.get('start-after'), o.get('end-before'));
  }
  return text;
}

/** Folders holding a Sphinx conf.py: where `/path` targets resolve from. */
export function sourceRoots(r: IncludeResolver): string[] {
  const confs = r.files.paths().filter((p) => /(^|\/)conf\.py$/.test(p));
  const mine = confs.map((c) => path.posix.dirname(c)).filter((d) => d === '.' || r.current.startsWith(`${d}/`));
  return mine.sort((a, b) => b.length - a.length).map((d) => (d === '.' ? '' : d));
}
