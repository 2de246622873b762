/**
 * The public API of two versions compared, from what is indexed of each: the symbols that
 * reference pages document under their own heading (`ctx.cookies.set(name, value, [options])`,
 * `server.port`, `flask.Flask.route`), the code docs generated from source (exported functions
 * and classes with their signatures) and OpenAPI operations (`GET /users/{id}`). Symbols
 * added, removed, whose signature changed, and newly deprecated. Pure.
 *
 * A heading is a symbol when it reads as code: a dotted or `#`/`::` path, a call with its
 * parameters, an HTTP operation, or a heading set wholly in backticks. Prose headings
 * ("Strings", "Getting started") are not API, and reference pages without symbol headings add
 * nothing — the diff covers what the docs name, said as such in the guide.
 */
import type { GuideSnippet } from './notes';

export interface ApiSymbol {
  /** What identifies it across versions: `ctx.cookies.set`, `server.port`, `GET /users/{id}`. */
  key: string;
  /** As documented: the heading with its parameters, or the first line of its signature. */
  signature: string;
  deprecated: boolean;
  url: string;
}

export interface ApiDiff {
  added: ApiSymbol[];
  removed: ApiSymbol[];
  changed: Array<{ key: string; from: string; to: string; url: string }>;
  deprecated: ApiSymbol[];
  /** How many symbols each version documents (0: nothing to compare). */
  counted: { from: number; to: number };
}

const CODE_EXTENSIONS = /\.(ts|tsx|js|mjs|cjs|py|go|rs|java|kt|rb|php|cs)$/i;
const API_FOLDER = /(^|\/)(api|apis|reference|references|api-reference|config|configuration)(\/|$)|(^|\/)api[\w-]*\.(md|mdx|rst)$/i;
const HTTP_OPERATION = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(\/\S*)/;
const IDENT = String.raw`[A-Za-z_$][\w$]*`;
const SYMBOL = new RegExp(String.raw`^(?:new\s+|class\s+|def\s+|function\s+|async\s+)?(${IDENT}(?:(?:\.|#|::)${IDENT})*)(\s*\([^)]*\)?)?\s*(=)?`);

/** Whether a snippet documents API: a reference page, an API or config folder, code docs or an OpenAPI operation. */
export function isApiSource(doc: Pick<GuideSnippet, 'pageKind' | 'path' | 'title'>): boolean {
  return doc.pageKind === 'reference' || API_FOLDER.test(doc.path) || CODE_EXTENSIONS.test(doc.path) || HTTP_OPERATION.test(doc.title);
}

/** The symbol a heading names (key and the signature as written), or undefined for a prose heading. */
export function symbolOfHeading(heading: string): { key: string; signature: string } | undefined {
  const raw = heading.trim();
  const http = HTTP_OPERATION.exec(raw);
  if (http) return { key: `${http[1]} ${http[2]}`, signature: `${http[1]} ${http[2]}` };
  const wholeCode = /^`[^`]+`$/.test(raw);
  const text = raw.replace(/`/g, '').trim();
  const m = SYMBOL.exec(text);
  if (!m) return undefined;
  const path = m[1]!;
  const call = m[2];
  const setter = m[3];
  const dotted = /[.#]|::/.test(path);
  // A single word is a symbol only when the heading is code (`z.string()`, `Router`) or a call.
  if (!dotted && !call && !wholeCode) return undefined;
  // "Getting started (beta)" is prose: a call's parentheses follow the name at once.
  if (!dotted && call && /^\s/.test(call) && !wholeCode) return undefined;
  const rest = text.slice(m[0].length).trim();
  if (rest.split(/\s+/).filter(Boolean).length > 3 && !wholeCode) return undefined;
  const key = `${path}${setter ? '=' : ''}`;
  return { key, signature: `${path}${call ? call.replace(/\s+/g, ' ').trim() : ''}${setter ? '=' : ''}` };
}

/** The documented symbols of one version, by key (the first place each is documented). */
export function apiSymbols(docs: readonly GuideSnippet[]): Map<string, ApiSymbol> {
  const out = new Map<string, ApiSymbol>();
  for (const doc of docs) {
    if (!isApiSource(doc) || (doc.part ?? 0) > 0) continue;
    const heading = doc.breadcrumb.at(-1) ?? doc.title;
    const found = symbolOfHeading(heading) ?? (CODE_EXTENSIONS.test(doc.path) ? symbolOfHeading(doc.title) : undefined);
    if (!found || out.has(found.key)) continue;
    const text = `${doc.description} ${doc.content}`.slice(0, 2000);
    out.set(found.key, {
      key: found.key,
      signature: found.signature,
      deprecated: /\bdeprecated\b/i.test(text) || /\bdeprecated\b/i.test(heading),
      url: doc.url,
    });
  }
  return out;
}

/** Signatures compared without spaces and quotes (formatting is not a change). */
function sameSignature(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/[\s'"`]/g, '');
  return norm(a) === norm(b);
}

export function diffApis(from: Map<string, ApiSymbol>, to: Map<string, ApiSymbol>): ApiDiff {
  const added: ApiSymbol[] = [];
  const removed: ApiSymbol[] = [];
  const changed: ApiDiff['changed'] = [];
  const deprecated: ApiSymbol[] = [];
  for (const [key, sym] of to) {
    const before = from.get(key);
    if (!before) added.push(sym);
    else if (!sameSignature(before.signature, sym.signature)) changed.push({ key, from: before.signature, to: sym.signature, url: sym.url });
    if (sym.deprecated && !before?.deprecated) deprecated.push(sym);
  }
  for (const [key, sym] of from) if (!to.has(key)) removed.push(sym);
  const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
  return {
    added: added.sort(byKey),
    removed: removed.sort(byKey),
    changed: changed.sort(byKey),
    deprecated: deprecated.sort(byKey),
    counted: { from: from.size, to: to.size },
  };
}
