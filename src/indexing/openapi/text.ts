/** Text shaping for snippets: bounded prose, readable identifiers. */

/** Cuts `text` to at most `max` characters, at a sentence or word boundary when one is near. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const sentence = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'));
  if (sentence > max * 0.6) return cut.slice(0, sentence + 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Markdown prose made compact for a snippet: horizontal rules and HTML line breaks dropped,
 * site-relative links reduced to their text (they point nowhere outside the vendor's site),
 * hard-wrapped paragraph lines joined, runs of blank lines collapsed. Lists, tables, headings
 * and code keep their lines.
 */
export function compactProse(markdown: string): string {
  const lines = markdown
    .replace(/\r\n?/g, '\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/\[([^\]\n]+)\]\((?:\/|#)[^)\s]*\)/g, '$1')
    .split('\n')
    .filter((line) => !/^\s*(-{3,}|\*{3,}|_{3,})\s*$/.test(line))
    .map((line) => line.trimEnd());
  const out: string[] = [];
  let inFence = false;
  for (const line of lines) {
    const previous = out[out.length - 1];
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const joinable =
      !inFence &&
      previous !== undefined &&
      previous !== '' &&
      line !== '' &&
      !STRUCTURED_LINE.test(line) &&
      !/^\s*(```|~~~)/.test(previous) &&
      !/^\s*(#|\|)/.test(previous);
    if (joinable) out[out.length - 1] = `${previous} ${line.trim()}`;
    else out.push(line);
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Lines that start their own line in Markdown: list items, headings, tables, quotes, code. */
const STRUCTURED_LINE = /^\s*([-*+] |\d+[.)] |#|\||>|```|~~~)|^ {4,}\S/;

/** The first sentence of `text` on one line (`"Cancels a batch. The …"` → `"Cancels a batch."`). */
export function firstSentence(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const end = /[.!?](\s|$)/.exec(line);
  return end ? line.slice(0, end.index + 1) : line;
}

/** `createChatCompletion`, `create_chat_completion` → `Create chat completion`. */
export function humanizeIdentifier(identifier: string): string {
  const words = identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .map((word) => (/^[A-Z0-9]+$/.test(word) && word.length > 1 ? word : word.toLowerCase()));
  const sentence = words.join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** One line with its whitespace collapsed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
