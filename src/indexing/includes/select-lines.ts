/**
 * Picking the part of an included file a directive asks for: mdBook anchors and line
 * ranges, AsciiDoc tags and `lines=`, Sphinx `:lines:`/`:start-after:`/`:end-before:`/
 * `:pyobject:`, MkDocs snippet sections. Pure functions over text; `undefined` means the
 * named part does not exist (the caller records it as a missing target).
 */

/** Lines of an mdBook/MkDocs anchor or marker comment, removed from every include. */
const MDBOOK_MARKER = /^.*\bANCHOR(?:_END)?:\s*[\w-]+.*$/;

/** mdBook: the lines between `ANCHOR: name` and `ANCHOR_END: name`, markers of other anchors dropped. */
export function mdbookAnchor(text: string, anchor: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => new RegExp(`\\bANCHOR:\\s*${escapeRegExp(anchor)}\\b`).test(l));
  if (start === -1) return undefined;
  const endRel = lines.slice(start + 1).findIndex((l) => new RegExp(`\\bANCHOR_END:\\s*${escapeRegExp(anchor)}\\b`).test(l));
  const end = endRel === -1 ? lines.length : start + 1 + endRel;
  return dropMdbookMarkers(lines.slice(start + 1, end).join('\n'));
}

/** Removes anchor marker lines (mdBook drops them from every include). */
export function dropMdbookMarkers(text: string): string {
  return text
    .split('\n')
    .filter((l) => !MDBOOK_MARKER.test(l))
    .join('\n');
}

/** 1-based inclusive line range; either end may be open. */
export function lineRange(text: string, from?: number, to?: number): string {
  const lines = text.split('\n');
  return lines.slice(Math.max(0, (from ?? 1) - 1), to ?? lines.length).join('\n');
}

/**
 * A list of line specs: Sphinx `1,3,5-10,20-` or AsciiDoc `1..5;7;9..-1`. Lines are
 * 1-based; `-1` as an AsciiDoc end means the last line.
 */
export function lineSpec(text: string, spec: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (const part of spec
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(\d*)\s*(?:(-|\.\.)\s*(-?\d*))?$/.exec(part);
    if (!m) continue;
    const from = m[1] ? Number(m[1]) : 1;
    const to = m[2] ? (m[3] && m[3] !== '-1' ? Number(m[3]) : lines.length) : from;
    out.push(...lines.slice(from - 1, to));
  }
  return out.join('\n');
}

/** Sphinx/reST: the text after the first line containing `after` and before the next line containing `before`. */
export function betweenMarkers(text: string, after?: string, before?: string): string | undefined {
  let lines = text.split('\n');
  if (after) {
    const i = lines.findIndex((l) => l.includes(after));
    if (i === -1) return undefined;
    lines = lines.slice(i + 1);
  }
  if (before) {
    const j = lines.findIndex((l) => l.includes(before));
    if (j === -1) return undefined;
    lines = lines.slice(0, j);
  }
  return lines.join('\n');
}

/** AsciiDoc tag lines: `// tag::name[]` and `# end::name[]` in any comment syntax. */
const ADOC_TAG = /\b(tag|end)::([\w.-]+|\*{1,2})\[\]/;

/**
 * AsciiDoc `tag=`/`tags=`: the lines inside the named tagged regions (all tag lines
 * removed). `!name` excludes; `*`/`**` select all tagged/all lines.
 */
export function asciidocTags(text: string, tags: string[]): string | undefined {
  const wanted = tags.filter((t) => !t.startsWith('!') && t !== '*' && t !== '**');
  const excluded = new Set(tags.filter((t) => t.startsWith('!')).map((t) => t.slice(1)));
  const all = tags.includes('**') || tags.includes('*');
  const open = new Set<string>();
  const out: string[] = [];
  let found = false;
  for (const line of text.split('\n')) {
    const m = ADOC_TAG.exec(line);
    if (m) {
      if (m[1] === 'tag') open.add(m[2]);
      else open.delete(m[2]);
      if (wanted.includes(m[2])) found = true;
      continue;
    }
    const inExcluded = [...open].some((t) => excluded.has(t));
    const inWanted = wanted.some((t) => open.has(t)) || (all && (tags.includes('**') || open.size > 0));
    if (inWanted && !inExcluded) out.push(line);
  }
  if (wanted.length > 0 && !found) return undefined;
  return out.join('\n');
}

/** Removes AsciiDoc tag lines from a whole-file include (Asciidoctor does the same). */
export function dropAsciidocTagLines(text: string): string {
  return text
    .split('\n')
    .filter((l) => !ADOC_TAG.test(l))
    .join('\n');
}

/**
 * MkDocs snippets sections: `--8<-- [start:name]` … `--8<-- [end:name]` (marker lines removed
 * from every include).
 */
export function snippetSection(text: string, name: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.includes(`--8<-- [start:${name}]`));
  if (start === -1) return undefined;
  const endRel = lines.slice(start + 1).findIndex((l) => l.includes(`--8<-- [end:${name}]`));
  const end = endRel === -1 ? lines.length : start + 1 + endRel;
  return dropSnippetMarkers(lines.slice(start + 1, end).join('\n'));
}

export function dropSnippetMarkers(text: string): string {
  return text
    .split('\n')
    .filter((l) => !/--8<--\s*\[(?:start|end):[\w-]+\]/.test(l))
    .join('\n');
}

/**
 * Sphinx `:pyobject:`: the source of a top-level (or `Class.method`) Python definition,
 * decorators included, found by indentation. Cheap and good enough for docs examples.
 */
export function pythonObject(text: string, name: string): string | undefined {
  const lines = text.split('\n');
  let from = 0;
  let to = lines.length;
  let indent = '';
  for (const part of name.split('.')) {
    const re = new RegExp(`^${indent}(?:async\\s+)?(?:def|class)\\s+${escapeRegExp(part)}\\b`);
    const i = lines.slice(from, to).findIndex((l) => re.test(l));
    if (i === -1) return undefined;
    const start = from + i;
    let end = start + 1;
    while (end < to && (lines[end].trim() === '' || leading(lines[end]).length > indent.length)) end++;
    while (end > start + 1 && lines[end - 1].trim() === '') end--;
    let head = start;
    while (head > from && /^\s*@/.test(lines[head - 1]) && leading(lines[head - 1]) === indent) head--;
    from = head;
    to = end;
    indent = leading(lines[start + 1] ?? '') || `${indent}    `;
  }
  return lines.slice(from, to).join('\n');
}

/** Removes the common leading indentation (Sphinx `:dedent:` without a number, AsciiDoc `indent=0`). */
export function dedent(text: string): string {
  const lines = text.split('\n');
  const widths = lines.filter((l) => l.trim() !== '').map((l) => leading(l).length);
  const cut = widths.length ? Math.min(...widths) : 0;
  return lines.map((l) => l.slice(Math.min(cut, leading(l).length))).join('\n');
}

function leading(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
