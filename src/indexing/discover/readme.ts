/** Title and description of a project from its README, when its config gives none. */
export function describeFromReadme(text: string): { title?: string; description?: string } {
  const lines = text.replace(/<!--[\s\S]*?-->/g, '').split('\n');
  let title: string | undefined;
  let description: string | undefined;
  let para: string[] = [];
  const flush = () => {
    const p = para.join(' ').trim();
    para = [];
    if (!description && isProse(p)) description = p.length > 300 ? `${p.slice(0, 297).replace(/\s+\S*$/, '')}...` : p;
  };
  for (let i = 0; i < lines.length && !description; i++) {
    const line = lines[i].trim();
    const h1 = /^#\s+(.+?)\s*#*$/.exec(line);
    if (h1 && !title) {
      title = clean(h1[1]);
      continue;
    }
    if (!title && /^[=#*]{3,}$/.test(lines[i + 1]?.trim() ?? '') && line && !/^[=#*-]+$/.test(line)) {
      title = clean(line);
      i++;
      continue;
    }
    if (!line || /^#/.test(line) || /^[=\-~^*]{3,}$/.test(line)) {
      flush();
      continue;
    }
    para.push(line);
  }
  flush();
  return { title, description: description ? clean(description) : undefined };
}

function isProse(p: string): boolean {
  if (p.length < 20) return false;
  if (/^(<|!\[|\[!\[|\.\. |\||```|:)/.test(p)) return false;
  const withoutLinks = p.replace(/!?\[[^\]]*\]\([^)]*\)/g, '').replace(/<[^>]+>/g, '').trim();
  return withoutLinks.length >= 20;
}

function clean(s: string): string {
  return s
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}
