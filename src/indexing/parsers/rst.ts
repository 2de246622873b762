/**
 * reStructuredText, scanned line by line: section titles (underline and optional overline,
 * levels in order of first appearance), code-block/code/sourcecode directives, `::` literal
 * blocks, doctest blocks, admonitions and Sphinx domain directives kept as prose, and roles
 * rendered as plain text. There is no maintained JS reST parser; this covers what
 * documentation uses.
 */
import type { ParsedSnippet, SourceDocument } from '../types';
import { SnippetBuilder } from './sections';

const ADORNMENT = /^([=\-~^"'`#*+_:.<>])\1{2,}\s*$/;
const DIRECTIVE = /^(\s*)\.\.\s+(?:\|[^|]+\|\s+)?([\w:.-]+)::\s*(.*)$/;
const CODE_DIRECTIVES = new Set(['code-block', 'code', 'sourcecode', 'literalinclude-no', 'testcode', 'doctest', 'jupyter-execute', 'ipython', 'prompt']);
const DROP_DIRECTIVES = /^(toctree|image|figure|include|literalinclude|raw|only|index|contents|currentmodule|module|py:module|py:currentmodule|testsetup|testcleanup|autoclass|automodule|autofunction|automethod|autoattribute|autodata|autoexception|autosummary|click|tabularcolumns|highlight|default-role|role|meta|sectnum|graphviz|mermaid|plot|rubric-no)$/;
const DOMAIN = /^(?:(?:py|js|c|cpp|std|rst):)?(function|class|method|attribute|data|exception|decorator|classmethod|staticmethod|property|module-no|envvar|option|describe|object|type|member|cmdoption|confval)$/;

interface Line {
  text: string;
  no: number;
}

/** Splits one reStructuredText document into snippets. */
export function splitRstIntoSnippets(doc: SourceDocument): ParsedSnippet[] {
  const lines: Line[] = doc.text.replace(/\r\n?/g, '\n').split('\n').map((text, i) => ({ text, no: i + 1 }));
  const builder = new SnippetBuilder(doc.path);
  const levels: string[] = [];
  let highlight = '';
  let para: Line[] = [];
  const flush = () => {
    if (para.length === 0) return;
    builder.prose(renderRoles(para.map((l) => l.text.trim()).join('\n')), para[0].no);
    para = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const { text, no } = lines[i];
    const trimmed = text.trim();

    // Section titles: text over an adornment at least as long (optionally with an overline).
    const next = lines[i + 1]?.text ?? '';
    if (trimmed && !text.startsWith(' ') && ADORNMENT.test(next) && next.trim().length >= Math.min(trimmed.length, 3) && para.length === 0 && !ADORNMENT.test(text)) {
      const key = next.trim()[0] + (ADORNMENT.test(lines[i - 1]?.text ?? '') ? '^' : '');
      if (!levels.includes(key)) levels.push(key);
      builder.heading(levels.indexOf(key) + 1, renderRoles(trimmed), no);
      i++;
      continue;
    }
    if (ADORNMENT.test(text) && !text.startsWith(' ')) {
      if (para.length === 1 && trimmed.length >= Math.min(para[0].text.trim().length, 3)) {
        const key = trimmed[0];
        if (!levels.includes(key)) levels.push(key);
        builder.heading(levels.indexOf(key) + 1, renderRoles(para[0].text.trim()), para[0].no);
        para = [];
      } else flush();
      continue;
    }

    const d = DIRECTIVE.exec(text);
    if (d) {
      flush();
      const indent = d[1].length;
      const name = d[2].toLowerCase();
      const arg = d[3].trim();
      const { body, end } = indentedBlock(lines, i + 1, indent);
      i = end;
      const content = body.filter((l, k) => !(k < 8 && /^\s*:[\w-]+:/.test(l.text) && body.slice(0, k).every((b) => /^\s*:[\w-]+:/.test(b.text))));
      if (name === 'highlight') highlight = arg;
      else if (CODE_DIRECTIVES.has(name)) {
        const lang = arg || (name === 'doctest' ? 'pycon' : name === 'testcode' ? 'python' : highlight);
        builder.code(lang, content.map((l) => l.text).join('\n'), no);
      } else if (DROP_DIRECTIVES.test(name)) {
        continue;
      } else {
        if (DOMAIN.test(name) && arg) builder.prose(`\`${arg}\``, no);
        else if (arg && !/^(note|warning|tip|important|hint|caution|danger|attention|error|seealso|todo)$/.test(name)) builder.prose(renderRoles(`${capitalise(name.replace(/^.*:/, ''))}: ${arg}`), no);
        // The body is ordinary reST: scan it in place.
        const inner = content.map((l) => ({ text: l.text.slice(Math.min(indent + 3, l.text.length - l.text.trimStart().length)), no: l.no }));
        lines.splice(i + 1, 0, ...inner);
      }
      continue;
    }
    if (/^\.\.(\s|$)/.test(trimmed) && !text.startsWith(' ')) {
      // Comments, link targets (.. _name:) and substitution definitions.
      flush();
      const { end } = indentedBlock(lines, i + 1, 0);
      i = end;
      continue;
    }
    if (trimmed.startsWith('>>>') && para.length === 0) {
      const start = i;
      while (i + 1 < lines.length && lines[i + 1].text.trim() !== '') i++;
      builder.code('pycon', lines.slice(start, i + 1).map((l) => l.text).join('\n'), no);
      continue;
    }
    if (trimmed === '') {
      // A paragraph ending in "::" introduces a literal block.
      const last = para[para.length - 1];
      if (last && /::\s*$/.test(last.text)) {
        const base = last.text.search(/\S/);
        last.text = last.text.replace(/\s*::\s*$/, last.text.trim() === '::' ? '' : ':');
        flush();
        const indent = (lines.slice(i + 1).find((l) => l.text.trim() !== '')?.text ?? '').search(/\S/);
        if (indent > base) {
          const { body, end } = indentedBlock(lines, i + 1, base);
          builder.code(highlight, body.map((l) => l.text).join('\n'), body[0]?.no ?? no);
          i = end;
        }
        continue;
      }
      flush();
      continue;
    }
    if (para.length > 0 && /::\s*$/.test(para[para.length - 1].text) && text.startsWith(' ') && para[para.length - 1].text.search(/\S/) < text.search(/\S/)) {
      para[para.length - 1].text = para[para.length - 1].text.replace(/\s*::\s*$/, ':');
      flush();
      const { body, end } = indentedBlock(lines, i, 0);
      builder.code(highlight, body.map((l) => l.text).join('\n'), no);
      i = end;
      continue;
    }
    para.push(lines[i]);
  }
  flush();
  return builder.finish();
}

/** The lines after a directive (or `::`) indented deeper than `indent`, blank lines included. */
function indentedBlock(lines: Line[], from: number, indent: number): { body: Line[]; end: number } {
  const body: Line[] = [];
  let j = from;
  for (; j < lines.length; j++) {
    const t = lines[j].text;
    if (t.trim() === '') {
      body.push(lines[j]);
      continue;
    }
    if (t.search(/\S/) <= indent) break;
    body.push(lines[j]);
  }
  while (body.length > 0 && body[body.length - 1].text.trim() === '') body.pop();
  while (body.length > 0 && body[0].text.trim() === '') body.shift();
  return { body, end: j - 1 };
}

/** `:func:`~a.b.c`` → `c`; `:ref:`text <target>`` → text; ``lit`` → `lit`; `text <url>`_ → text. */
export function renderRoles(s: string): string {
  return s
    .replace(/:[\w:.-]+:`([^`<]*?)\s*<[^>]*>`/g, '$1')
    .replace(/:[\w:.-]+:`~?([^`]*?)`/g, (_m, target: string) => {
      const t = target.startsWith('.') ? target.slice(1) : target;
      return _m.includes('`~') ? `\`${t.split('.').pop() ?? t}\`` : `\`${t}\``;
    })
    .replace(/``([^`]+)``/g, '`$1`')
    .replace(/`([^`<]+?)\s*<[^>]+>`__?/g, '$1')
    .replace(/`([^`]+)`_\b_?/g, '$1')
    .replace(/\|([\w -]+)\|/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1');
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
