/**
 * Whether a block is JavaScript or TypeScript code: esbuild (a dependency the build already
 * uses; its service starts on the first call) transforms it as TSX without a syntax error, and it reads as
 * code — a declaration, an arrow, a call, an import — rather than a version list, a log or
 * commands, which a parser alone can accept (`Chrome >= 91` is an expression). Not the
 * TypeScript compiler: it adds ~140 MB to a process that only a generateDocs build should pay
 * (test/foundation/footprint). Used for a JavaScript or TypeScript project's unlabelled
 * Markdown code (snippets/project-language.ts).
 */
import { transformSync } from 'esbuild';
import { SHELL_COMMAND } from './text-utils';

/** Blocks longer than this are not checked (a page's unlabelled code is a few lines). */
const MAX_CHARS = 20_000;

export function readsAsScriptCode(code: string): boolean {
  const text = code.trim();
  if (text === '' || text.length > MAX_CHARS || !readsAsScript(text)) return false;
  try {
    transformSync(text, { loader: 'tsx', logLevel: 'silent' });
    return true;
  } catch {
    return false;
  }
}

/** Something script code has: a declaration or statement keyword, an arrow, a call or JSX. */
function readsAsScript(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.every((l) => SHELL_COMMAND.test(l.trim()))) return false;
  return /^\s*(?:import|export|const|let|var|function|class|interface|type|enum|return|if|for|while|switch|try|throw|await|async)\b|=>|\w\)?\(|^\s*<[A-Za-z]/m.test(
    text,
  );
}
