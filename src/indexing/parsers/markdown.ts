/**
 * Markdown and MDX, scanned line by line (fast, never backtracks): front matter, ATX and
 * setext headings, fenced code at any indentation (lists, MkDocs tabs and admonitions),
 * Docusaurus/VitePress/MkDocs/GitHub admonitions kept as prose, MDX imports/exports and JSX
 * component tags removed while their Markdown children are kept.
 */
import type { ParsedSnippet, SourceDocument } from '../types';
import { SnippetBuilder } from './sections';

const FENCE_OPEN = /^(\s*)(`{3,}|~{3,})\s*([^`]*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const JSX_TAG_LINE = /^\s*<\/?[A-Z][\w.]*(\s[^<>]*)?\/?>\s*$/;
const JSX_OPEN_START = /^\s*<[A-Z][\w.]*(\s|$)/;
const HTML_BLOCK_TAG = /^\s*<\/?(div|details|summary|p|br|hr|img|table|thead|tbody|tr|td|th|span|section|figure|figcaption|a|iframe|video|picture|source|center|sup|sub|kbd)\b[^>]*>\s*$/i;
const INCLUDE_DIRECTIVE = /^\s*(\{[*!%].*[*!%]\}|\{\{.*\}\}|<!--.*-->)\s*$/;

/** Splits one Markdown/MDX document into snippets. */
export function splitMarkdownIntoSnippets(doc: SourceDocument): ParsedSnippet[] {
  const lines = doc.text.replace(/\r\n?/g, '\n').split('\n');
  const { title, bodyStart } = frontMatter(lines);
  const builder = new SnippetBuilder(doc.path, title);
  scanMarkdown(lines, bodyStart, builder, doc.path.toLowerCase().endsWith('.mdx'));
  return builder.finish();
}

/** Scans lines[start..] into the builder (also used for notebook markdown cells). */
export function scanMarkdown(lines: string[], start: number, builder: SnippetBuilder, mdx: boolean, lineOffset = 0): void {
  let para: string[] = [];
  let paraLine = 0;
  const flush = () => {
    if (para.length > 0) builder.prose(para.join('\n'), paraLine + lineOffset);
    para = [];
  };
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();

    const fence = FENCE_OPEN.exec(line);
    if (fence) {
      flush();
      const marker = fence[2];
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const t = lines[j].trim();
        if (t.startsWith(marker[0].repeat(marker.length)) && /^[`~]+$/.test(t)) break;
        body.push(lines[j]);
      }
      const code = body.filter((l) => !INCLUDE_DIRECTIVE.test(l)).join('\n');
      const lang = fence[3].trim().split(/\s+/)[0]?.replace(/^\{\.?|\}$/g, '') ?? '';
      if (!/^(mermaid|math)$/i.test(lang)) builder.code(lang, code, i + 1 + lineOffset);
      i = j;
      continue;
    }
    if (trimmed.startsWith('<!--')) {
      flush();
      while (i < lines.length && !lines[i].includes('-->')) i++;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx && atx[2] !== undefined) {
      flush();
      builder.heading(atx[1].length, atx[2], i + 1 + lineOffset);
      continue;
    }
    if (para.length === 1 && SETEXT.test(line) && !/^\s*[-*+]\s/.test(para[0])) {
      const text = para[0];
      para = [];
      builder.heading(line.trim()[0] === '=' ? 1 : 2, text, paraLine + lineOffset);
      continue;
    }
    if (mdx && /^(import|export)\s/.test(line)) {
      flush();
      // Multi-line imports/exports run to the line that ends the statement.
      while (i < lines.length - 1 && !/(from\s+['"][^'"]+['"];?|;|\}|\))\s*$/.test(lines[i]) && lines[i + 1].trim() !== '') i++;
      continue;
    }
    if (JSX_TAG_LINE.test(line) || HTML_BLOCK_TAG.test(line) || INCLUDE_DIRECTIVE.test(line)) {
      flush();
      continue;
    }
    if (JSX_OPEN_START.test(line) && !line.includes('>')) {
      // A component whose attributes span several lines: skip to the end of its tag.
      flush();
      while (i < lines.length - 1 && !/>\s*$/.test(lines[i])) i++;
      continue;
    }
    if (/^\s*(:::+|!!!|\?\?\?\+?|===)\s*/.test(line)) {
      // Admonition and tab markers: the marker goes, the (indented) content stays.
      flush();
      const label = trimmed.replace(/^(:::+|!!!|\?\?\?\+?|===)\s*/, '').replace(/^[a-z]+\s*/i, (m) => (/^(note|tip|info|warning|danger|caution|important|details|example|abstract|success|question|failure|bug|quote)\b/i.test(m) ? '' : m));
      const title = label.replace(/^["']|["']$/g, '').replace(/[{}]/g, '').trim();
      if (title && !/^["']?(python|js|ts|bash)/i.test(title)) builder.prose(title, i + 1 + lineOffset);
      continue;
    }
    if (trimmed === '') {
      flush();
      continue;
    }
    if (para.length === 0) paraLine = i + 1;
    para.push(trimmed.replace(/^>\s?(\[!(\w+)\]\s*)?/, ''));
  }
  flush();
}

function frontMatter(lines: string[]): { title?: string; bodyStart: number } {
  if (lines[0]?.trim() !== '---') return { bodyStart: 0 };
  for (let i = 1; i < Math.min(lines.length, 300); i++) {
    if (lines[i].trim() === '---' || lines[i].trim() === '...') {
      let title: string | undefined;
      for (const l of lines.slice(1, i)) {
        const m = /^title:\s*(.+?)\s*$/.exec(l);
        if (m) title = m[1].replace(/^["']|["']$/g, '').trim() || undefined;
      }
      return { title, bodyStart: i + 1 };
    }
  }
  return { bodyStart: 0 };
}
