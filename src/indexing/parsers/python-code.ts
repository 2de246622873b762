/**
 * Whether a block is Python code, as Sphinx decides when it highlights a block in its default
 * language: Pygments' Python lexer reads it without an error token (else Sphinx falls back to
 * no highlighting), and it reads as code rather than a directory tree, a log or commands. Our
 * own small check, because Pygments is not a Node library; used for reST's highlight rule
 * (rst-directives.ts) and for a Python project's unlabelled Markdown code
 * (snippets/project-language.ts).
 */
import { SHELL_COMMAND } from './text-utils';

/** Code that Pygments would lex as Python and that reads as code (not a tree, a log or commands). */
export function readsAsPythonCode(code: string): boolean {
  const text = code.trim();
  return text !== '' && lexesAsPython(text) && readsAsPython(text);
}

/** Something Python code has: a statement keyword, a decorator, an assignment or a call. */
function readsAsPython(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.every((l) => SHELL_COMMAND.test(l.trim()))) return false;
  return /^\s*(?:import|from|def|class|return|if|for|while|with|try|raise|async|await|yield|assert|print)\b|^\s*@\w|[\w\])]\s*=[^=]|\w\(/m.test(text);
}

/**
 * Whether Pygments' Python lexer would read the block without an error token (what makes
 * Sphinx fall back to none): strings closed (triple-quoted ones across lines), and outside
 * strings and comments no `$`, `?`, backtick, lone `!` or non-ASCII symbol.
 */
function lexesAsPython(code: string): boolean {
  const text = code.replace(/("""|''')[\s\S]*?\1/g, '""');
  if (/"""|'''/.test(text)) return false;
  for (const line of text.split('\n')) {
    let rest = '';
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (c === '#') break;
      if (c === '"' || c === "'") {
        let j = i + 1;
        while (j < line.length && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
        if (j >= line.length && !line.endsWith('\\')) return false;
        i = j;
        continue;
      }
      rest += c;
    }
    if (/[$?`]|![^=]|!$/.test(rest) || /[^\p{ASCII}\p{L}\p{N}]/u.test(rest)) return false;
  }
  return true;
}
