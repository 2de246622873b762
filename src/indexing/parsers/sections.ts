/**
 * The one place that turns a document's structure into snippets, so every format splits
 * the same way. Format scanners report headings, prose paragraphs and code blocks in
 * document order; the builder tracks the heading path, gives each code block the prose
 * that introduces it, and makes bounded info snippets of each section's prose.
 */
import type { ParsedSnippet } from '../types';

/** Info snippets are split at paragraph boundaries beyond this size. */
export const INFO_CHUNK_CHARS = 1500;
/** Sections with less prose than this produce no info snippet. */
export const MIN_INFO_CHARS = 40;
const MAX_DESCRIPTION = 600;
const MAX_CODE = 6000;

interface Paragraph {
  text: string;
  line: number;
}

export class SnippetBuilder {
  private readonly out: ParsedSnippet[] = [];
  private stack: { level: number; text: string }[] = [];
  private paragraphs: Paragraph[] = [];
  private sectionLine = 1;
  private lastParagraph: string | undefined;
  private pageTitle: string;
  private titleFixed: boolean;

  constructor(
    private readonly path: string,
    pageTitle?: string,
  ) {
    this.titleFixed = Boolean(pageTitle);
    this.pageTitle = pageTitle ?? titleFromPath(path);
  }

  heading(level: number, raw: string, line: number): void {
    const text = cleanInline(raw);
    if (!text) return;
    this.flushSection();
    if (!this.titleFixed && this.out.length === 0 && this.stack.length === 0) {
      this.pageTitle = text;
      this.titleFixed = true;
    }
    this.stack = this.stack.filter((h) => h.level < level);
    this.stack.push({ level, text });
    this.sectionLine = line;
    this.lastParagraph = undefined;
  }

  prose(raw: string, line: number): void {
    const text = cleanProse(raw);
    if (!text) return;
    this.paragraphs.push({ text, line });
    this.lastParagraph = text;
  }

  code(language: string, raw: string, line: number): void {
    const code = truncateCode(dedent(raw).replace(/\s+$/, ''));
    if (!code.trim()) return;
    const description = this.lastParagraph ?? this.paragraphs[0]?.text ?? '';
    this.out.push({
      kind: 'code',
      title: this.currentTitle(),
      breadcrumb: this.breadcrumb(),
      pageTitle: this.pageTitle,
      description: description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 3).replace(/\s+\S*$/, '')}...` : description,
      content: '',
      language: normaliseLanguage(language),
      code,
      path: this.path,
      startLine: line,
    });
  }

  finish(): ParsedSnippet[] {
    this.flushSection();
    return this.out;
  }

  private currentTitle(): string {
    return this.stack.length > 0 ? this.stack[this.stack.length - 1].text : this.pageTitle;
  }

  private breadcrumb(): string[] {
    const headings = this.stack.map((h) => h.text);
    return headings[0] === this.pageTitle ? headings : [this.pageTitle, ...headings];
  }

  private flushSection(): void {
    const paragraphs = this.paragraphs;
    this.paragraphs = [];
    const total = paragraphs.reduce((n, p) => n + p.text.length, 0);
    if (total < MIN_INFO_CHARS) return;
    let chunk: Paragraph[] = [];
    let size = 0;
    const emit = (first: boolean) => {
      if (chunk.length === 0) return;
      this.out.push({
        kind: 'info',
        title: this.currentTitle(),
        breadcrumb: this.breadcrumb(),
        pageTitle: this.pageTitle,
        description: '',
        content: chunk.map((p) => p.text).join('\n\n'),
        language: '',
        code: '',
        path: this.path,
        startLine: first ? this.sectionLine : chunk[0].line,
      });
      chunk = [];
      size = 0;
    };
    let first = true;
    for (const p of paragraphs) {
      if (size > 0 && size + p.text.length > INFO_CHUNK_CHARS) {
        emit(first);
        first = false;
      }
      chunk.push(p.text.length > INFO_CHUNK_CHARS * 2 ? { ...p, text: `${p.text.slice(0, INFO_CHUNK_CHARS * 2)}...` } : p);
      size += p.text.length;
    }
    emit(first);
  }
}

/** "docs/api/context-menu.md" → "Context Menu". */
export function titleFromPath(path: string): string {
  const name = (path.split('/').pop() ?? path).replace(/\.[^.]+$/, '');
  const base = /^(index|readme)$/i.test(name) ? (path.split('/').slice(-2, -1)[0] ?? name) : name;
  return base.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()).trim() || path;
}

/** Heading text without markup. */
export function cleanInline(s: string): string {
  return s
    .replace(/\{#[^}]*\}\s*$/, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Prose lightly cleaned: link text without URLs, no images or HTML tags; inline code kept. */
export function cleanProse(s: string): string {
  return s
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const LANGUAGE_ALIASES: Record<string, string> = {
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'jsx', ts: 'typescript', tsx: 'tsx',
  py: 'python', python3: 'python', py3: 'python', sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', 'shell-session': 'bash',
  yml: 'yaml', rb: 'ruby', 'c++': 'cpp', 'c#': 'csharp', cs: 'csharp', text: 'text', txt: 'text', plaintext: 'text',
};

export function normaliseLanguage(lang: string): string {
  const l = lang.trim().toLowerCase().replace(/^\{?\.?/, '').replace(/[}{]/g, '').split(/[\s,{]/)[0] ?? '';
  return LANGUAGE_ALIASES[l] ?? l;
}

export function dedent(s: string): string {
  const lines = s.split('\n');
  let min = Infinity;
  for (const l of lines) if (l.trim()) min = Math.min(min, l.length - l.trimStart().length);
  if (!Number.isFinite(min) || min === 0) return s;
  return lines.map((l) => l.slice(Math.min(min, l.length - l.trimStart().length))).join('\n');
}

function truncateCode(code: string): string {
  if (code.length <= MAX_CODE) return code;
  const cut = code.lastIndexOf('\n', MAX_CODE);
  return `${code.slice(0, cut > MAX_CODE / 2 ? cut : MAX_CODE)}\n...`;
}
