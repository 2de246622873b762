/**
 * HTML pages (.html, .htm), as website sources and uploaded built sites give them. The main
 * content (html-content.ts) is converted to Markdown with turndown, a maintained converter
 * working on a real DOM (linkedom), and the Markdown parser then makes the snippets, so a
 * page is split exactly like the Markdown it was generated from.
 *
 * Turndown's defaults lose what documentation needs, so this module adds rules for:
 * code blocks (language from `language-x`/`lang-x`/`highlight-x` classes on the block or its
 * wrappers, `data-lang`/`data-language`; highlighter spans flattened, `<br>` and per-line
 * spans kept as line breaks), tables (GFM, first row as header), admonitions (Sphinx/MkDocs
 * `.admonition`, Docusaurus `.theme-admonition`, VitePress `.custom-block`, `<details>`) as
 * `:::kind[Title]` blocks the Markdown parser unwraps, tabs (each tab's label as a line
 * before its panel, so the label stays with its code), and definition lists (Sphinx API
 * entries). Line numbers in snippets count lines of the converted Markdown.
 */
import TurndownService from 'turndown';
import type { ParsedSnippet, SourceDocument } from '../types';
import { extractMainContent } from './html-content';
import { splitMarkdownIntoSnippets } from './markdown';

// linkedom's element type; turndown's typings name the browser's, which we do not load.
type El = ReturnType<typeof extractMainContent>['main'];
type TurndownNode = Parameters<TurndownService['turndown']>[0];

const NO_LANGUAGE = new Set(['', 'default', 'none', 'text', 'plaintext', 'plain', 'txt', 'nohighlight', 'notranslate', 'output']);
const ADMONITION_KINDS = [
  'note',
  'tip',
  'hint',
  'info',
  'important',
  'warning',
  'caution',
  'attention',
  'danger',
  'error',
  'seealso',
  'success',
  'question',
  'example',
  'abstract',
  'bug',
  'quote',
  'details',
];

/** Converts a page to Markdown (also used by tests and the fidelity report). */
export function htmlToMarkdown(html: string): { markdown: string; title: string } {
  const { main, title } = extractMainContent(html);
  markTabs(main);
  markAdmonitions(main);
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
  service.addRule('code-block', { filter: (node) => node.nodeName === 'PRE', replacement: (_c, node) => fence(node as unknown as El) });
  service.addRule('table', { filter: (node) => node.nodeName === 'TABLE', replacement: (_c, node) => table(node as unknown as El) });
  service.addRule('admonition', {
    filter: (node) => (node as unknown as El).getAttribute?.('data-sm-admonition') != null,
    replacement: (content, node) => {
      const el = node as unknown as El;
      const heading = el.getAttribute('data-sm-title') ?? '';
      return `\n\n:::${el.getAttribute('data-sm-admonition')}${heading ? `[${heading.replace(/[[\]]/g, '')}]` : ''}\n\n${content.trim()}\n\n:::\n\n`;
    },
  });
  service.addRule('tab-label', {
    filter: (node) => (node as unknown as El).getAttribute?.('data-sm-tab') != null,
    replacement: (_c, node) => `\n\n${(node as unknown as El).getAttribute('data-sm-tab')}:\n\n`,
  });
  service.addRule('definition-term', { filter: ['dt'], replacement: (content) => `\n\n**${content.trim().replace(/\*\*/g, '')}**\n\n` });
  service.addRule('definition', { filter: ['dd'], replacement: (content) => `\n\n${content.trim()}\n\n` });
  service.addRule('heading-anchor', {
    // Links around a heading's text keep the text; self-links ("#", "¶") were removed as chrome.
    filter: (node) => node.nodeName === 'A' && /^H[1-6]$/.test(node.parentNode?.nodeName ?? ''),
    replacement: (content) => content,
  });
  let markdown = service.turndown(main as unknown as TurndownNode);
  if (title && !/^# /m.test(markdown)) markdown = `# ${title}\n\n${markdown}`;
  return { markdown, title };
}

/** Splits one HTML page into snippets. Never throws. */
export function splitHtmlIntoSnippets(doc: SourceDocument): ParsedSnippet[] {
  const { markdown } = htmlToMarkdown(doc.text);
  return splitMarkdownIntoSnippets({ path: doc.path.replace(/\.html?$/i, '.md'), text: markdown }).map((s) => ({ ...s, path: doc.path }));
}

/** The language of a code block: data attributes, then classes on the block and up to three wrappers. */
export function codeLanguage(pre: El): string {
  const chain = [pre.querySelector('code'), pre, pre.parentElement, pre.parentElement?.parentElement, pre.parentElement?.parentElement?.parentElement];
  for (const el of chain) {
    if (!el) continue;
    const data = el.getAttribute('data-lang') ?? el.getAttribute('data-language');
    if (data && !NO_LANGUAGE.has(data.toLowerCase())) return data.toLowerCase();
    for (const cls of (el.getAttribute('class') ?? '').split(/\s+/)) {
      const m = /^(?:language|lang|highlight|sourceCode|brush:?)-?([A-Za-z0-9_+#.-]+)$/.exec(cls);
      if (m && !NO_LANGUAGE.has(m[1].toLowerCase()) && !/^(source|ipython\d?-?)$/.test(m[1])) return m[1].toLowerCase();
    }
  }
  return '';
}

/** The text of a code block: highlighter spans flattened, `<br>` and per-line spans as line breaks. */
export function codeText(pre: El): string {
  const copy = pre.cloneNode(true) as El;
  for (const br of copy.querySelectorAll('br')) br.replaceWith('\n');
  let text = copy.textContent ?? '';
  const lines = copy.querySelectorAll('.token-line, span.line, .code-line');
  if (!text.includes('\n') && lines.length > 1) text = [...lines].map((l) => l.textContent ?? '').join('\n');
  return text
    .replace(/\u00a0/g, ' ')
    .replace(/\s+$/, '')
    .replace(/^\n+/, '');
}

function fence(pre: El): string {
  const code = codeText(pre);
  if (!code.trim()) return '';
  const ticks = code.includes('```') ? '~~~~' : '```';
  return `\n\n${ticks}${codeLanguage(pre)}\n${code}\n${ticks}\n\n`;
}

function table(el: El): string {
  const rows = [...el.querySelectorAll('tr')].map((tr) => [...tr.children].filter((c: El) => /^(TD|TH)$/.test(c.tagName)).map((c: El) => cell(c)));
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return '';
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  const [head, ...body] = rows;
  return `\n\n${[line(head), line(Array(width).fill('---')), ...body.map(line)].join('\n')}\n\n`;
}

function cell(el: El): string {
  const code = el.querySelectorAll('code').length === 1 && (el.textContent ?? '').trim() === (el.querySelector('code')?.textContent ?? '').trim();
  const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
  return code && text ? `\`${text}\`` : text;
}

/** Marks admonitions (kind and title) for the turndown rule, removing their title element. */
function markAdmonitions(main: El): void {
  const selector = '.admonition, .theme-admonition, .custom-block, details, .alert, [class*="admonition_"]';
  for (const el of main.querySelectorAll(selector)) {
    if (el.getAttribute('data-sm-admonition') != null) continue;
    const classes: string[] = (el.getAttribute('class') ?? '').toLowerCase().split(/\s+/);
    const kind =
      ADMONITION_KINDS.find((k) => classes.some((c: string) => c === k || c.endsWith(`-${k}`) || c === `admonition-${k}`)) ??
      (el.tagName === 'DETAILS' ? 'details' : 'note');
    const titleEl = el.querySelector(
      ':scope > .admonition-title, :scope > .custom-block-title, :scope > summary, :scope > [class*="admonitionHeading"], :scope > .alert-title',
    );
    const title = (titleEl?.textContent ?? '').replace(/\s+/g, ' ').trim();
    titleEl?.remove();
    el.setAttribute('data-sm-admonition', kind);
    if (title && title.toLowerCase() !== kind) el.setAttribute('data-sm-title', title);
  }
}

/** Flattens tab sets into "label:" lines each followed by its panel. */
function markTabs(main: El): void {
  // MkDocs Material (.tabbed-set), sphinx-design (.sd-tab-set), sphinx-tabs, VitePress code groups,
  // Docusaurus and any ARIA tab widget.
  for (const set of main.querySelectorAll('.tabbed-set, .sd-tab-set, .sphinx-tabs, .vp-code-group, .tabs-container, [role="tablist"]')) {
    const container = set.getAttribute('role') === 'tablist' ? set.parentElement : set;
    if (!container || container.getAttribute('data-sm-tabs') != null) continue;
    container.setAttribute('data-sm-tabs', '');
    const labels = [...container.querySelectorAll('[role="tab"], .tabbed-labels > label, label.sd-tab-label, .tabs > label, :scope > label')].map((l) =>
      (l.getAttribute('data-title') ?? l.textContent ?? '').replace(/\s+/g, ' ').trim(),
    );
    const panels = [...container.querySelectorAll('[role="tabpanel"], .tabbed-block, .sd-tab-content, .blocks > div, :scope > .tabbed-content > *')].filter(
      (p, i, all) => !all.some((other, j) => j !== i && other.contains(p)),
    );
    if (labels.length === 0 || panels.length !== labels.length) continue;
    const doc = container.ownerDocument;
    const flat = doc.createElement('div');
    panels.forEach((panel, i) => {
      const label = doc.createElement('p');
      label.setAttribute('data-sm-tab', labels[i]);
      // Text inside, or turndown's blank-element rule would drop it before ours runs.
      label.textContent = labels[i];
      flat.appendChild(label);
      flat.appendChild(panel);
    });
    container.replaceWith(flat);
  }
}
