// Syntax highlighting of code blocks: speed-highlight's tokenizer (vendored, one grammar
// module per language, loaded on first use) gives typed tokens, and each becomes a text node
// in a classed <span> — no HTML strings, so code from indexed docs stays text.
import { h } from './dom.js';

const VENDOR = new URL('../vendor/speed-highlight/', import.meta.url);

/** Fence names → the highlighter's grammar names; anything else stays plain. */
const ALIASES = {
  js: 'js',
  javascript: 'js',
  jsx: 'js',
  mjs: 'js',
  cjs: 'js',
  node: 'js',
  ts: 'ts',
  typescript: 'ts',
  tsx: 'ts',
  mts: 'ts',
  py: 'py',
  python: 'py',
  python3: 'py',
  pycon: 'py',
  sh: 'bash',
  bash: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  shellsession: 'bash',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  ini: 'ini',
  cfg: 'ini',
  html: 'html',
  vue: 'html',
  svelte: 'html',
  xml: 'xml',
  svg: 'xml',
  css: 'css',
  scss: 'css',
  less: 'css',
  go: 'go',
  golang: 'go',
  rust: 'rs',
  rs: 'rs',
  java: 'java',
  kotlin: 'java',
  c: 'c',
  cpp: 'c',
  'c++': 'c',
  h: 'c',
  sql: 'sql',
  diff: 'diff',
  patch: 'diff',
  dockerfile: 'docker',
  docker: 'docker',
  md: 'md',
  markdown: 'md',
  http: 'http',
  lua: 'lua',
  make: 'make',
  makefile: 'make',
  regex: 'regex',
  log: 'log',
  lean: 'lean',
};

const grammars = new Map();
let tokenizeWith;

function loadGrammar(name) {
  if (!grammars.has(name))
    grammars.set(
      name,
      import(new URL(`languages/${name}.js`, VENDOR).href).then(
        (m) => m.default,
        () => null,
      ),
    );
  return grammars.get(name);
}

/** The grammar name for a fence's language, or null (shown plain). */
export function grammarFor(language) {
  return (
    ALIASES[
      String(language ?? '')
        .trim()
        .toLowerCase()
    ] ?? null
  );
}

/**
 * Tokens of `code` in `language` as [text, type][], loading the grammar and the grammars it
 * embeds (a comment's TODOs, a doc comment, a regex) on first use. Null when there is none.
 */
export async function tokenize(code, language) {
  const name = grammarFor(language);
  if (!name) return null;
  tokenizeWith ??= (await import(new URL('tokenize.js', VENDOR).href)).tokenizeWith;
  const loaded = {};
  for (let pass = 0; pass < 4; pass++) {
    const missing = new Set();
    const languages = new Proxy(loaded, { get: (target, key) => (typeof key === 'string' && !(key in target) ? (missing.add(key), undefined) : target[key]) });
    const tokens = [];
    tokenizeWith(
      code,
      name,
      (text, type) => {
        if (text) tokens.push([text, type]);
      },
      { languages },
    );
    if (missing.size === 0) return tokens;
    for (const key of missing) loaded[key] = (await loadGrammar(key)) ?? []; // no such grammar: its text stays plain
  }
  return [[code, undefined]];
}

/** Fills `codeEl` (a <code> inside a <pre>) with highlighted spans of its own text; plain when the language is unknown. */
export async function highlightElement(codeEl, language) {
  const code = codeEl.textContent ?? '';
  const tokens = await tokenize(code, language).catch(() => null);
  if (!tokens) return;
  codeEl.replaceChildren(...tokens.map(([text, type]) => (type ? h('span', { class: `tok-${type}` }, text) : document.createTextNode(text))));
  codeEl.dataset.highlighted = grammarFor(language);
}
