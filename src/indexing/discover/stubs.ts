/**
 * Pages that are not content by what they hold rather than by their name: redirect stubs
 * (front matter `redirect_to:`/`redirect:`, a meta refresh, or a short page saying the
 * content has moved). Judged on the raw text, before parsing.
 */

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;
const REDIRECT_KEY = /^(?:redirect_to|redirect|redirectTo|redirect_url)\s*:\s*\S/m;
const META_REFRESH = /<meta\s+http-equiv=["']?refresh["']?/i;
const MOVED =
  /\b(?:(?:has|have)\s+(?:been\s+)?moved|(?:was|were)\s+moved|moved\s+(?:permanently\s+)?to|is\s+now\s+(?:at|located|hosted)|redirect(?:s|ing|ed)?\s+to|can\s+now\s+be\s+found\s+at)\b/i;

/** Prose shorter than this (front matter and markup aside) with a "moved" sentence is a stub. */
const STUB_MAX_CHARS = 400;

/** Why a page is a redirect stub, or undefined. */
export function redirectStubReason(text: string): string | undefined {
  const fm = FRONT_MATTER.exec(text);
  if (fm && REDIRECT_KEY.test(fm[1])) return 'redirect stub';
  const body = fm ? text.slice(fm[0].length) : text;
  if (META_REFRESH.test(body)) return 'redirect stub';
  const prose = body
    .replace(/<[^>]*>/g, ' ')
    .replace(/^[#=*\-\s]+/gm, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (prose.length <= STUB_MAX_CHARS && MOVED.test(prose)) return 'redirect stub';
  return undefined;
}
