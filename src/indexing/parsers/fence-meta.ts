/**
 * What a fence's info string and annotation comments say beyond the language: the file the
 * code belongs in (`title="astro.config.mjs"`, `filename=`, VitePress's `[vite.config.ts]`)
 * and diff markers — Expressive Code's `del={5}`/`ins={6-7}` and Shiki's `// [!code --]`/
 * `// [!code ++]` — so a snippet holds the code as it ends up, never a removed line beside
 * its replacement as if both were valid. Other Shiki annotations (`[!code highlight]`,
 * `focus`, `error`, `warning`, `word:x`) are removed from the code.
 */

export interface FenceMeta {
  file?: string;
  /** 1-based lines of the block marked as removed. */
  deleted: Set<number>;
}

const FILE = /(?:^|\s)(?:title|filename|file)=(?:"([^"]+)"|'([^']+)'|([^\s"'{}]+))/;
const VITEPRESS_FILE = /^\S*\s*\[([^\]\s]+\.[\w]+)\]/;
const DEL = /(?:^|\s)(?:del|remove)=\{([\d,\s-]+)\}/;
const ANNOTATION = /\s*(?:\/\/|#|--|<!--|\/\*|;)\s*\[!code\s+([^\]]+)\](?:\s*(?:-->|\*\/))?\s*$/;

export function fenceMeta(info: string): FenceMeta {
  const file = FILE.exec(info);
  const vp = VITEPRESS_FILE.exec(info);
  const deleted = new Set<number>();
  const del = DEL.exec(info);
  if (del) {
    for (const part of del[1].split(',')) {
      const [a, b] = part.split('-').map((x) => Number(x.trim()));
      if (!Number.isFinite(a)) continue;
      for (let n = a; n <= (Number.isFinite(b) ? b : a) && n - a < 10_000; n++) deleted.add(n);
    }
  }
  const name = file?.[1] ?? file?.[2] ?? file?.[3] ?? vp?.[1];
  return { ...(name ? { file: name } : {}), deleted };
}

/** The block's lines as the code ends up: removed lines dropped, annotations taken out. */
export function applyDiffMarkers(lines: readonly string[], meta: FenceMeta): string[] {
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (meta.deleted.has(i + 1)) return;
    const note = ANNOTATION.exec(line);
    if (!note) {
      out.push(line);
      return;
    }
    if (note[1].trim() === '--') return;
    out.push(line.slice(0, note.index));
  });
  return out;
}

/**
 * Rust examples as mdBook and rustdoc show them: a line that is `#` alone or starts with `# `
 * is hidden from the reader (boilerplate such as `# fn main() {`), `##` shows as `#`. Other
 * languages' lines are left alone (`#[derive]`, `#!` and `#include` stay in Rust too).
 */
export function hideRustdocLines(lines: readonly string[], language: string): string[] {
  if (language !== 'rust' && language !== 'rs') return [...lines];
  const out: string[] = [];
  for (const line of lines) {
    const m = /^(\s*)#(#?)(?=\s|$)/.exec(line);
    if (!m) out.push(line);
    else if (m[2] === '#') out.push(`${m[1]}#${line.slice(m[0].length)}`);
  }
  return out;
}
