/**
 * The text form of a code answer (HTTP `type=txt`, the MCP tool, the CLI): one provenance
 * line saying which library, version and commit the code was read at, one line saying what
 * was asked and how much was found (and why it stopped early), then the results grouped by
 * file with line numbers, so a model can read a range next. Pure.
 */
import { provenanceLine } from '../retrieval/provenance';
import type { CodeAnswer } from './code-query';
import type { CodeMatch, FoundSymbol } from './operations';

function stopNote(answer: CodeAnswer, limitHint: string): string {
  if (answer.stoppedBy === 'limit') return ` Stopped at the limit: ${limitHint}`;
  if (answer.stoppedBy === 'deadline') return ' Stopped at the time limit: the results are partial; narrow the search with path.';
  return '';
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

function matchesByFile(matches: readonly CodeMatch[]): string {
  const out: string[] = [];
  let current = '';
  for (const m of matches) {
    if (m.path !== current) {
      current = m.path;
      out.push(`\n${m.path}`);
    }
    out.push(`  ${String(m.line).padStart(5)}${m.kind === 'definition' ? '*' : ':'} ${m.text}`);
  }
  return out.join('\n');
}

function symbolLine(s: FoundSymbol, withPath: boolean): string {
  const where = withPath ? `${s.path}:${s.line}-${s.endLine}` : `${String(s.line).padStart(5)}-${s.endLine}`;
  const name = s.container ? `${s.container}.${s.name}` : s.name;
  return `${withPath ? '' : s.container ? '  ' : ''}${where}  ${s.kind} ${name}${withPath ? `\n    ${s.signature}` : `  ${s.signature}`}`;
}

export function formatCodeText(answer: CodeAnswer): string {
  const header = provenanceLine(answer.provenance).replace(/^Docs:/, 'Code:');
  const scanned = answer.filesScanned !== undefined ? ` (${plural(answer.filesScanned, 'file')} read of ${answer.tree.files.toLocaleString('en-US')})` : '';
  const body = ((): string => {
    switch (answer.operation) {
      case 'search':
      case 'references': {
        const matches = answer.matches ?? [];
        const files = new Set(matches.map((m) => m.path)).size;
        const what = answer.operation === 'search' ? `search "${answer.query}"` : `references of ${answer.query} (* marks a declaration)`;
        if (matches.length === 0) return `${what}: nothing found${scanned}.${stopNote(answer, '')}`;
        return `${what}: ${plural(matches.length, 'line')} in ${plural(files, 'file')}${scanned}.${stopNote(answer, 'raise limit or narrow with path.')}\n${matchesByFile(matches)}`;
      }
      case 'definition': {
        const symbols = answer.symbols ?? [];
        if (symbols.length === 0) return `definition of ${answer.query}: no declaration found${scanned}. Try search, or references.${stopNote(answer, '')}`;
        return `definition of ${answer.query}: ${plural(symbols.length, 'declaration')}${scanned}.${stopNote(answer, 'narrow with path.')}\n\n${symbols.map((s) => symbolLine(s, true)).join('\n')}`;
      }
      case 'outline': {
        if (answer.files)
          return `files under this path: ${answer.files.length}${answer.stoppedBy ? ' (the first ones)' : ''}; outline one of them for its symbols.\n\n${answer.files.join('\n')}`;
        const symbols = answer.symbols ?? [];
        const p = symbols[0]?.path ?? '';
        if (symbols.length === 0) return 'outline: no declarations found (a language without a grammar here, or a file without declarations); read it instead.';
        return `outline of ${p}: ${plural(symbols.length, 'symbol')}.\n\n${symbols.map((s) => symbolLine(s, false)).join('\n')}`;
      }
      case 'read': {
        const f = answer.file;
        if (!f) return '';
        const more = f.endLine < f.totalLines ? ` (read on with startLine=${f.endLine + 1})` : '';
        const width = String(f.endLine).length;
        const lines = f.text.split('\n').map((l, i) => `${String(f.startLine + i).padStart(width)}| ${l}`);
        return `${f.path} lines ${f.startLine}-${f.endLine} of ${f.totalLines}${more}:\n\n${lines.join('\n')}`;
      }
    }
  })();
  return `${header}\n\n${body}\n`;
}
