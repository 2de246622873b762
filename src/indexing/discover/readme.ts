/**
 * Title and description of a project from its README (Markdown or reStructuredText), for
 * libraries whose config gives none: the first level-1 heading and the project's own
 * summary — the first paragraph of real prose in the README's lead (before its first
 * section) or in a section that introduces the project ("About", "Overview", "What is …"),
 * past logos, badges, HTML banners, link lists and code. Paragraphs of other sections
 * (getting started, contributing, development…) are never a description: they describe
 * working on the repository, not the library (react.dev's came from its contributing
 * guidelines).
 */

/** Descriptions are cut to about this many characters, at a sentence or word boundary. */
export const README_DESCRIPTION_MAX = 300;

/** The first H1 (ATX, setext, reST or HTML) and the first prose paragraph of a README. */
export function describeFromReadme(text: string): { title?: string; description?: string } {
  const lines = stripFrontMatter(text.replace(/\r\n?/g, '\n'))
    .replace(/<!--[\s\S]*?-->/g, '')
    .split('\n');
  let title: string | undefined;
  let description: string | undefined;
  let para: string[] = [];
  let fence: string | undefined;
  let inLead = true;
  let summarySection = true;
  const flush = () => {
    if (!description && para.length > 0) description = proseOf(para);
    para = [];
  };
  for (let i = 0; i < lines.length && !description; i++) {
    const raw = lines[i];
    const line = raw.trim();
    if (fence) {
      if (line.startsWith(fence)) fence = undefined;
      continue;
    }
    const open = /^(`{3,}|~{3,})/.exec(line);
    if (open) {
      flush();
      fence = open[1];
      continue;
    }
    const next = lines[i + 1]?.trim() ?? '';
    const heading = headingAt(line, next, lines[i - 1]?.trim() ?? '');
    if (heading) {
      flush();
      if (heading.level === 1 && title === undefined) title = clean(heading.text) || undefined;
      // An HTML heading below h1 sits inside a banner or sponsor table, not a section of the text.
      if (heading.html && heading.level > 1) continue;
      // The lead ends at the first section below the title; an introducing section reopens it.
      if (heading.level > 1 || title !== undefined) summarySection = heading.level === 1 ? inLead : SUMMARY_HEADING.test(clean(heading.text));
      if (heading.level > 1) inLead = false;
      if (heading.underlined) i++;
      continue;
    }
    if (line === '' || /^([-=~^*_+#`:.'"]\s*){3,}$/.test(line)) {
      flush();
      continue;
    }
    if (summarySection) para.push(line);
  }
  flush();
  return { ...(title ? { title } : {}), ...(description ? { description } : {}) };
}

/** A heading at this line: `# x`, `<h1>x</h1>`, or a line underlined by `===`/`---` (level 1 for `=`). */
function headingAt(line: string, next: string, previous: string): { level: number; text: string; underlined: boolean; html?: boolean } | undefined {
  const atx = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
  if (atx) return { level: atx[1].length, text: atx[2], underlined: false };
  const html = /^<h([1-6])\b[^>]*>(.*?)<\/h\1>/i.exec(line);
  if (html) return { level: Number(html[1]), text: html[2], underlined: false, html: true };
  const under = /^([=\-~^*#])\1{2,}\s*$/.exec(next);
  if (line !== '' && under && !/^([=\-~^*#])\1+$/.test(line) && next.length >= Math.min(line.length, 3)) {
    // reST marks the title with an over- and underline; Markdown's setext H1 uses `=`.
    const overlined = previous !== '' && previous === next;
    return { level: under[1] === '=' || overlined ? 1 : 2, text: line, underlined: true };
  }
  return undefined;
}

/** The paragraph as a description, or undefined when it is not prose (badges, HTML, lists, directives). */
function proseOf(para: readonly string[]): string | undefined {
  const first = para[0];
  const joined = para.join(' ');
  // HTML paragraphs (`<p align="center">Promise based HTTP client…</p>`, a centred tagline
  // with a link in it) are prose when words remain outside their links, logos and tags (up
  // to a line break: a byline follows); banners of links, logos and sponsor tables are not.
  if (first.startsWith('<')) return htmlProseOf(joined);
  if (/^(\||\+[-=]|\.\. |:\w+:|[-*+]\s|\d+[.)]\s|\[!\[|!\[|>\s*\[!)/.test(first)) return undefined;
  const text = clean(
    para
      .filter((l) => !/^\[[^\]]+\]:\s*\S+/.test(l))
      .map((l) => l.replace(/^>\s?/, ''))
      .join(' '),
  );
  if (ABOUT_THE_REPO.test(text) || (GREETING.test(text) && text.length < 120)) return undefined;
  const words = text.replace(/\b\w+:\/\/\S+/g, '').match(/\p{L}{2,}/gu) ?? [];
  if (text.length < 20 || words.length < 3 || !text.includes(' ')) return undefined;
  return shorten(text, README_DESCRIPTION_MAX);
}

/**
 * Paragraphs about the repository rather than the library ("This repo contains the source
 * code of the website", "This is the repository for the docs") and short greetings
 * ("Hi there 👋", "Welcome!") say nothing a reader choosing a library needs.
 */
const ABOUT_THE_REPO =
  /^(?:this|the)\s+(?:repo|repository|project|folder|directory)\s+(?:contains|holds|hosts|has|is\s+(?:the\s+)?(?:home|source|repo|repository|place))\b|^this\s+is\s+the\s+(?:source|repo|repository|home)\b.*\b(?:site|website|docs|documentation|book)\b|^(?:this|the)\s+(?:site|website|docs|documentation)\s+is\s+(?:built|generated|made|written|powered)\b/i;

/** Headings of sections that introduce the project (a summary may sit there instead of the lead). */
const SUMMARY_HEADING = /^(?:about|overview|introduction|intro|description|summary|synopsis|what\s+is|what's|why)\b/i;

/** A paragraph of HTML as prose: its first line's words outside links and tags, when there are enough. */
function htmlProseOf(joined: string): string | undefined {
  if (/<(img|table|picture|svg|video|iframe|h[1-6])\b/i.test(joined)) return undefined; // a logo block, a sponsor table
  const firstLine = joined.split(/<br\s*\/?>/i)[0];
  const outsideLinks = firstLine.replace(/<a\b[^>]*>[\s\S]*?<\/a>/gi, ' ').replace(/<[^>]+>/g, ' ');
  if ((outsideLinks.match(/\p{L}{2,}/gu) ?? []).length < 4) return undefined;
  const text = clean(firstLine);
  if (ABOUT_THE_REPO.test(text)) return undefined;
  return shorten(text, README_DESCRIPTION_MAX);
}
const GREETING = /^(?:hi|hello|hey|howdy|greetings|welcome)\b/i;

/** Markdown/reST/HTML markup removed: images and badges dropped, links reduced to their text. */
function clean(s: string): string {
  return s
    .replace(/\[!\[[^\]]*\](\([^)]*\)|\[[^\]]*\])\](\([^)]*\)|\[[^\]]*\])/g, '')
    .replace(/!\[[^\]]*\](\([^)]*\)|\[[^\]]*\])/g, '')
    .replace(/\[([^\]]*)\](\([^)]*\)|\[[^\]]*\])?/g, '$1')
    .replace(/`([^`<]+)\s*<[^>]+>`_{1,2}/g, '$1')
    .replace(/\|[\w -]+\|/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*|_|``|`)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Cuts at the last sentence end before `max`, else at a word boundary with an ellipsis. */
function shorten(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = s.slice(0, max);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  if (sentence >= max * 0.5) return head.slice(0, sentence + 1);
  const space = head.lastIndexOf(' ', max - 1);
  return `${head.slice(0, space > max * 0.5 ? space : max - 1).replace(/[\s,;:]+$/, '')}…`;
}

function stripFrontMatter(text: string): string {
  const m = /^(?:\uFEFF)?---\n[\s\S]*?\n---\n/.exec(text);
  return m ? text.slice(m[0].length) : text;
}
