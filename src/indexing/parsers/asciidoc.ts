/** AsciiDoc: `=` section titles, `[source,lang]` listing blocks, literal blocks, admonition paragraphs. */
import type { ParsedSnippet, SourceDocument } from '../types';
import { SnippetBuilder } from './sections';

export function splitAsciidocIntoSnippets(doc: SourceDocument): ParsedSnippet[] {
  const lines = doc.text.replace(/\r\n?/g, '\n').split('\n');
  const builder = new SnippetBuilder(doc.path);
  let para: string[] = [];
  let paraLine = 0;
  let pendingLang: string | undefined;
  const flush = () => {
    if (para.length > 0) builder.prose(para.join('\n').replace(/^(NOTE|TIP|IMPORTANT|WARNING|CAUTION):\s*/, '$1: '), paraLine);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const t = line.trim();
    const heading = /^(={1,6})\s+(.+)$/.exec(line);
    if (heading) {
      flush();
      builder.heading(heading[1].length, heading[2], i + 1);
      continue;
    }
    const source = /^\[(?:source|listing)(?:,\s*([\w+#-]+))?.*\]$/.exec(t);
    if (source) {
      flush();
      pendingLang = source[1] ?? '';
      continue;
    }
    if (/^(-{4,}|\.{4,})$/.test(t)) {
      flush();
      const delim = t;
      const start = i + 1;
      let j = start;
      while (j < lines.length && lines[j].trim() !== delim) j++;
      builder.code(pendingLang ?? '', lines.slice(start, j).join('\n'), i + 1);
      pendingLang = undefined;
      i = j;
      continue;
    }
    if (/^:[\w-]+:/.test(t) || /^\/\//.test(t) || /^\[[^\]]*\]$/.test(t) || /^(include|image|toc)::/.test(t)) {
      flush();
      continue;
    }
    if (t === '') {
      flush();
      continue;
    }
    if (para.length === 0) paraLine = i + 1;
    para.push(t);
  }
  flush();
  return builder.finish();
}
