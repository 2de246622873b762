/**
 * Shortcodes a docs site or GitHub renders as pictures: GitHub's emoji (`:warning:` → ⚠️, the
 * gemoji list GitHub itself uses) and Material for MkDocs icons (`:material-help:`,
 * `:fontawesome-brands-github:`), which have no text form and are removed. Applied to Markdown
 * prose and headings outside code.
 */
import { gemoji } from 'gemoji';

const EMOJI: ReadonlyMap<string, string> = new Map(gemoji.flatMap((e) => e.names.map((name) => [name, e.emoji] as const)));

/** Material for MkDocs icons: pictures on the site. */
const ICON_SHORTCODE = /:(?:material|fontawesome|octicons|simple)-[a-z0-9]+(?:-[a-z0-9]+)*:[ \t]?/g;

/** `:name:` standing alone (not inside `a:b:c`, a time or a URL). */
const EMOJI_SHORTCODE = /(?<![\w:/]):([a-z0-9_+-]+):(?![\w:/`])/g;

/** Emoji shortcodes as their emoji, icons removed; unknown `:names:` stay as written. */
export function renderShortcodes(text: string): string {
  if (!text.includes(':')) return text;
  return text.replace(ICON_SHORTCODE, '').replace(EMOJI_SHORTCODE, (whole, name: string) => EMOJI.get(name) ?? whole);
}
