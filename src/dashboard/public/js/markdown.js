// Readable answers: Markdown rendered safely (marked → DOMPurify → a fragment: no scripts,
// handlers, styles, forms or frames; indexed docs are untrusted), code blocks highlighted
// (js/highlight.js) and each given a copy button.
import { h } from './dom.js';
import { highlightElement } from './highlight.js';
import { marked } from '../vendor/marked.js';
import DOMPurify from '../vendor/purify.js';

/** Markdown → sanitized DOM (a div.md), its fenced code highlighted, with copy buttons. */
export function renderMarkdown(text) {
  const html = marked.parse(String(text ?? ''), { gfm: true, breaks: false, async: false });
  const fragment = DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
    FORBID_ATTR: ['style'],
  });
  for (const a of fragment.querySelectorAll('a[href]')) {
    a.setAttribute('rel', 'noopener noreferrer');
    a.setAttribute('target', '_blank');
  }
  const root = h('div.md', fragment);
  for (const pre of root.querySelectorAll('pre')) {
    const code = pre.querySelector('code') ?? pre;
    const language = /(?:^|\s)language-([\w+#.-]+)/.exec(code.className)?.[1] ?? '';
    pre.replaceWith(codeBlock(code.textContent ?? '', language));
  }
  return root;
}

/** A code block: highlighted when its language is known, with a copy button and the language named. */
export function codeBlock(code, language = '', { label } = {}) {
  const codeEl = h('code', code);
  // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
  const pre = h('pre', { tabindex: '0', 'data-language': language || undefined, 'aria-label': label ?? (language ? `${language} code` : 'code') }, codeEl);
  void highlightElement(codeEl, language);
  return h(
    'div.code-block',
    h(
      'div.code-bar',
      h('span.small', language || 'code'),
      copyButton(() => code, label ? `Copy ${label}` : 'Copy code'),
    ),
    pre,
  );
}

/** A button that copies `text()` and says so (in words, in a live region). */
export function copyButton(text, label = 'Copy') {
  const status = h('span.small.copy-status', { role: 'status' });
  const button = h('button.secondary.small-button', { type: 'button', 'aria-label': label }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text());
      status.textContent = 'Copied.';
    } catch {
      status.textContent = 'Select the text and copy it.';
    }
    setTimeout(() => {
      status.textContent = '';
    }, 3000);
  });
  return h('span.copy', button, status);
}
