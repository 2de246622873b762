/**
 * The part of a documentation page worth indexing: its main content, without the chrome a
 * site generator wraps around it (navigation, sidebars, headers/footers, breadcrumbs,
 * "edit this page", prev/next links, cookie banners, copy buttons, heading anchors).
 *
 * Works on a DOM from linkedom (a real HTML parser). The main container is found by, in
 * order: the containers of the generators we know (Sphinx, MkDocs Material, Docusaurus,
 * VitePress, Read the Docs), `<main>`, `<article>`, `[role=main]`, then a text-density
 * score (the element whose own paragraphs/code/tables hold the most non-link text).
 * @mozilla/readability was not used: it is tuned for articles and drops short code-heavy
 * sections and tables that are the point of API pages.
 */
import { parseHTML } from 'linkedom';

type El = ReturnType<typeof parseHTML>['document']['documentElement'];

/** Known generator containers, most specific first. */
const CONTAINERS = [
  '.theme-doc-markdown', // Docusaurus
  '.vp-doc', // VitePress
  'article.md-content__inner', // MkDocs Material
  '[itemprop="articleBody"]', // Sphinx (RTD theme, furo)
  'div.body[role="main"]', // Sphinx basic/alabaster
  'div[role="main"] div.body',
  '#content .section, #content section',
];

/** Chrome inside a content container. */
const CHROME = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'canvas',
  'svg',
  'img',
  'picture',
  'video',
  'audio',
  'form',
  'button',
  'input',
  'select',
  'textarea',
  'nav',
  'aside',
  'footer',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="search"]',
  '[aria-hidden="true"]',
  '.breadcrumbs',
  '.breadcrumb',
  '[aria-label="breadcrumbs"]',
  '[class*="breadcrumb"]',
  '.theme-edit-this-page',
  '.edit-this-page',
  '.edit-link',
  '.md-source-file',
  '.md-content__button',
  '.VPDocFooter',
  '.prev-next',
  '.pagination-nav',
  '.rst-footer-buttons',
  '.related-pages',
  '.headerlink',
  '.hash-link',
  '.header-anchor',
  '.anchor-link',
  '.copy',
  '.copybtn',
  '.clipboard',
  '.md-clipboard',
  '.sr-only',
  '.visually-hidden',
  '.toc',
  '.md-sidebar',
  '.sphinxsidebar',
  '[class*="cookie"]',
  '[id*="cookie"]',
  '[class*="consent"]',
  '[id*="consent"]',
  '.announcement',
  '[class*="announcementBar"]',
  'div[class*="language-"] > span.lang', // VitePress's language badge
  '.linenos',
  '.lineno',
  '.line-numbers-wrapper',
  '.line-numbers-rows',
];

export interface PageContent {
  /** The main content element (detached from nothing: still inside `document`). */
  main: El;
  /** `<title>` (without a " — Site" suffix), `og:title`, or the first `<h1>`. */
  title: string;
}

/** Parses HTML and returns its main content with the chrome removed. */
export function extractMainContent(html: string): PageContent {
  let { document } = parseHTML(html);
  // A fragment, or text that is no HTML at all, leaves no document element: wrap it.
  if (!document.documentElement || !document.body) ({ document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`));
  const title = pageTitle(document);
  for (const selector of ['script', 'style', 'noscript', 'template']) for (const e of document.querySelectorAll(selector)) e.remove();
  const main = findMain(document);
  for (const selector of CHROME) for (const e of main.querySelectorAll(selector)) e.remove();
  // Pygments line-number tables: keep the code cell only (the numbers cell went with .linenos).
  for (const t of main.querySelectorAll('table.highlighttable, table.linenotable')) {
    const code = t.querySelector('td.code');
    if (code) t.replaceWith(...code.childNodes);
    else t.remove();
  }
  // A header inside the content keeps its heading but not the rest (Docusaurus puts the h1 in one).
  for (const header of main.querySelectorAll('header')) {
    const heading = header.querySelector('h1, h2');
    if (heading) header.replaceWith(heading);
    else header.remove();
  }
  return { main, title };
}

function findMain(document: ReturnType<typeof parseHTML>['document']): El {
  for (const selector of CONTAINERS) {
    const el = document.querySelector(selector);
    if (el && textLength(el) > 0) return el;
  }
  for (const selector of ['main', 'article', '[role="main"]']) {
    const el = document.querySelector(selector);
    if (el && textLength(el) > 0) return el;
  }
  return densest(document.body ?? document.documentElement);
}

/** The element whose direct content blocks hold the most text that is not link text. */
function densest(root: El): El {
  let best = root;
  let bestScore = 0;
  for (const el of [root, ...root.querySelectorAll('div, section, td')]) {
    let score = 0;
    for (const child of el.children) {
      if (/^(P|PRE|TABLE|UL|OL|DL|BLOCKQUOTE|H[1-6])$/.test(child.tagName)) {
        const links = [...child.querySelectorAll('a')].reduce((n, a) => n + (a.textContent ?? '').length, 0);
        score += Math.max(0, (child.textContent ?? '').length - 2 * links);
      }
    }
    if (score > bestScore) {
      best = el;
      bestScore = score;
    }
  }
  return best;
}

function textLength(el: El): number {
  return (el.textContent ?? '').trim().length;
}

function pageTitle(document: ReturnType<typeof parseHTML>['document']): string {
  const og = document.querySelector('meta[property="og:title"]')?.getAttribute('content')?.trim();
  const raw = document.querySelector('title')?.textContent?.trim() ?? '';
  // "Intro — Widgets 1.0 documentation", "Intro | Widgets": the site name follows a separator.
  const title = raw.split(/\s+[|—–·»]\s+|\s+-\s+/)[0]?.trim();
  const h1 = document
    .querySelector('h1')
    ?.textContent?.replace(/[¶#]\s*$/, '')
    .trim();
  return og || title || h1 || '';
}
