/**
 * Markdown and MDX (.md, .mdx, .markdown). Two line-based passes that never backtrack: the
 * first strips front matter and unwraps containers (quotes, admonitions, tabs, JSX/HTML,
 * comments, ESM), the second finds headings, code and prose. A 1 MB page parses in a few
 * milliseconds; markdown-it is not a dependency and a full AST is not needed for snippets.
 */
import yaml from 'js-yaml';
import type { ParsedSnippet, SourceDocument } from '../types';
import { markdownBlocks } from './markdown-blocks';
import { expandComponents } from './markdown-components';
import { mergePackageManagerTabs } from './package-managers';
import { cleanHeadingText, cleanMarkdownProse } from './markdown-inline';
import { unwrapMarkdown } from './markdown-unwrap';
import { blocksToSnippets, firstTitle, type DocBlock } from './sections';
import { numberLines, titleFromPath, type SourceLine } from './text-utils';

export interface MarkdownOptions {
  mdx: boolean;
}

/** Splits one Markdown or MDX document into snippets. Never throws. */
export function splitMarkdownIntoSnippets(doc: SourceDocument): ParsedSnippet[] {
  const lines = numberLines(doc.text);
  const front = readFrontMatter(lines);
  const header = README.test(doc.path) ? readmeHeader(front.body) : { title: '', body: front.body };
  const blocks = markdownToBlocks(header.body, { mdx: /\.mdx$/i.test(doc.path) });
  const summary = cleanMarkdownProse(front.description);
  // The front matter's description summarises the page; it stands in for a missing intro,
  // in the title's section (after a leading H1), so the page does not gain a section of its own.
  const title = blocks[0]?.kind === 'heading' && blocks[0].level === 1 ? 1 : 0;
  const next = blocks.findIndex((b, i) => i >= title && b.kind === 'heading');
  const intro = blocks.slice(title, next === -1 ? undefined : next);
  if (summary !== '' && !intro.some((b) => b.kind === 'prose')) blocks.splice(title, 0, { kind: 'prose', text: summary, line: front.descriptionLine });
  return blocksToSnippets(blocks, { path: doc.path, pageTitle: pageTitleOf(front.title, firstTitle(blocks)) || header.title || titleFromPath(doc.path) });
}

/**
 * The front matter's title, or the page's H1 when that title is the H1 with the site
 * section after a separator (VitePress `title: deps | Config` over `# deps`: the browser
 * tab's words, not the page's).
 */
function pageTitleOf(front: string, h1: string): string {
  if (front !== '' && h1 !== '' && front.toLowerCase().startsWith(h1.toLowerCase()) && /^\s+[|·•–—-]\s/.test(front.slice(h1.length))) return h1;
  return front || h1;
}

const README = /(^|\/)readme(?:[._-][\w-]+)?\.mdx?$/i;
const BADGES = /^\s*(?:\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)|!\[[^\]]*\]\([^)]*\)|\[!\[[^\]]*\]\[[^\]]*\]\]\[[^\]]*\]|\s)+$/;

/**
 * A README's header, which a repository page shows as a banner: the HTML blocks (logo,
 * centred title, badge rows, taglines) and Markdown badge lines before the first heading or
 * plain paragraph. Its lines become blank (numbering stays true); an `<h1>` in it is
 * returned as the page's title for a README without a Markdown one.
 */
export function readmeHeader(lines: readonly SourceLine[]): { title: string; body: SourceLine[] } {
  let inHtml = false;
  let end = 0;
  let title = '';
  for (; end < lines.length; end++) {
    const t = lines[end].text.trim();
    if (t === '') {
      inHtml = false;
      continue;
    }
    if (inHtml || t.startsWith('<')) {
      inHtml = !/^<!--.*-->$/.test(t);
      const h1 = /<h1\b[^>]*>(.*?)<\/h1>/i.exec(t);
      if (h1 && !title) title = cleanHeadingText(h1[1].replace(/<[^>]*>/g, ''));
      continue;
    }
    if (BADGES.test(t)) continue;
    break;
  }
  if (end === 0) return { title: '', body: [...lines] };
  return { title, body: [...lines.slice(0, end).map((l) => ({ text: '', line: l.line })), ...lines.slice(end)] };
}

/** Markdown lines (with their original numbers) to blocks; also used for notebook cells. */
export function markdownToBlocks(lines: readonly SourceLine[], options: MarkdownOptions): DocBlock[] {
  return mergePackageManagerTabs(markdownBlocks(unwrapMarkdown(expandComponents(lines), options), { indentedCode: !options.mdx }));
}

/** Front matter bigger than this is not front matter but a document that starts with `---`. */
const MAX_FRONT_MATTER_LINES = 500;

export interface FrontMatter {
  title: string;
  description: string;
  /** Line of the description in the file (1 when there is none). */
  descriptionLine: number;
  /** The lines after the front matter. */
  body: readonly SourceLine[];
}

/**
 * YAML (`---`) or TOML (`+++`) front matter: its `title` and `description`, and the lines
 * after it. Malformed YAML still has its block removed; its fields are then read line by line.
 */
export function readFrontMatter(lines: readonly SourceLine[]): FrontMatter {
  const none = { title: '', description: '', descriptionLine: 1, body: lines };
  const first = lines[0]?.text.trim();
  if (first !== '---' && first !== '+++') return none;
  const limit = Math.min(lines.length, MAX_FRONT_MATTER_LINES);
  let end = -1;
  for (let i = 1; i < limit; i++) {
    const t = lines[i].text.trim();
    if (t === first || (first === '---' && t === '...')) {
      end = i;
      break;
    }
  }
  if (end < 0) return none;
  const header = lines.slice(1, end);
  const raw = header.map((l) => l.text).join('\n');
  const fields = first === '---' ? yamlFields(raw) : undefined;
  const separator = first === '---' ? ':' : '=';
  const descriptionLine = header.find((l) => /^description\s*[:=]/.test(l.text))?.line ?? 1;
  return {
    title: cleanHeadingText(fields ? fields.title : lineField(raw, 'title', separator)),
    description: fields ? fields.description : lineField(raw, 'description', separator),
    descriptionLine,
    body: lines.slice(end + 1),
  };
}

/** `title` and `description` of YAML front matter; undefined when the YAML does not parse. */
function yamlFields(raw: string): { title: string; description: string } | undefined {
  try {
    const data: unknown = yaml.load(raw, { schema: yaml.JSON_SCHEMA });
    if (!data || typeof data !== 'object') return { title: '', description: '' };
    const record = data as Record<string, unknown>;
    return { title: scalar(record.title), description: scalar(record.description) };
  } catch {
    return undefined;
  }
}

function scalar(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '';
}

function lineField(raw: string, name: string, separator: ':' | '='): string {
  const m = new RegExp(`^${name}[ \\t]*${separator}[ \\t]*(.+)$`, 'm').exec(raw);
  return m ? m[1].trim().replace(/^(["'])(.*)\1$/, '$2') : '';
}
