/**
 * Size bounds of stored snippets. Parsers already aim below these; the bounds are the
 * guarantee, applied to every source (docs, generated API docs, OpenAPI) in one place.
 */

/** Maximum characters per field. */
/** `content` holds a section part's prose with its code (parsers/section-parts.ts: ~2,400 characters a part). */
export const SNIPPET_BOUNDS = { code: 8000, description: 800, content: 4000, title: 200 } as const;

/** Marks text that was cut, on its own line for code. */
const ELLIPSIS = '...';

/** Code cut at the last line break that fits, with a `...` line saying so. */
export function boundCode(code: string, max: number = SNIPPET_BOUNDS.code): string {
  if (code.length <= max) return code;
  const room = max - ELLIPSIS.length - 1;
  const cut = code.lastIndexOf('\n', room);
  const head = code.slice(0, cut > room / 2 ? cut : room).trimEnd();
  return `${head}\n${ELLIPSIS}`;
}

/** Prose cut at a paragraph, line or sentence end when one is near the limit, else at a word, with `...`. */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  // Leaves room for the longest ending, "\n\n...".
  const room = max - ELLIPSIS.length - 2;
  const head = text.slice(0, room);
  const floor = room * 0.6;
  const paragraph = head.lastIndexOf('\n\n');
  if (paragraph > floor) return `${head.slice(0, paragraph).trimEnd()}\n\n${ELLIPSIS}`;
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('.\n'), head.lastIndexOf('! '), head.lastIndexOf('? '), head.lastIndexOf('\n'));
  if (sentence > floor) return `${head.slice(0, sentence + 1).trimEnd()} ${ELLIPSIS}`;
  const space = head.lastIndexOf(' ');
  return `${head.slice(0, space > floor ? space : room).trimEnd()}${ELLIPSIS}`;
}

/** A single-line label (title, breadcrumb entry) bounded at a word. */
export function boundLabel(label: string, max: number = SNIPPET_BOUNDS.title): string {
  const flat = label.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : boundText(flat, max);
}
