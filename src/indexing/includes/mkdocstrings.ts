/**
 * mkdocstrings: `::: pkg.mod.Name` in a Markdown page renders, at the site's build time, the
 * API reference of that object from the Python source's docstrings. Here the same entries are
 * taken from the repository's own source at the same commit (autodoc.ts does it for Sphinx)
 * and written where the directive stands as `{shelfmark:api}` fences, one per entry, whose
 * body is the entry as JSON; the Markdown parser makes each a code snippet with its own title.
 * The directive's `options:` block is read for `members` (a list limits the entries, `false`
 * keeps the object's own entry only). A target that cannot be found is left as written (the
 * parser drops it: parsers/markdown-unwrap.ts) and logged as `unresolved`.
 */
import yaml from 'js-yaml';
import { isMkdocstrings } from '../parsers/markdown-unwrap';
import { apiLookup, type ApiLookup } from './autodoc';
import { replaceAsync, type IncludeResolver } from './resolver';

/** The directive with the lines under it (its options block: blank or indented deeper). */
const DIRECTIVE = /^([ \t]*):::[ \t]+([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)[ \t]*(?:\n|$)((?:(?:\1[ \t]+[^\n]*|[ \t]*)(?:\n|$))*)/gm;

/** A cheap test for a directive that names a dotted path or has options. */
export const MKDOCSTRINGS_DIRECTIVE = /^[ \t]*:::[ \t]+[A-Za-z_][\w]*(?:\.[\w.]+|[ \t]*\n[ \t]+options:)/m;

export async function expandMkdocstrings(text: string, r: IncludeResolver): Promise<string> {
  if (!MKDOCSTRINGS_DIRECTIVE.test(text)) return text;
  let lookup: ApiLookup | undefined;
  return replaceAsync(text, DIRECTIVE, async (m) => {
    const [whole, indent, target, block] = m;
    // A colon fence (`::: tip`) is not ours.
    if (
      !isMkdocstrings(
        target,
        block.split('\n').find((l) => l.trim() !== ''),
      )
    )
      return whole;
    const members = optionsOf(block)?.members;
    lookup ??= await apiLookup(r);
    const entries = await lookup(target, Array.isArray(members) ? members.map(String) : undefined);
    if (entries === undefined || entries.length === 0) {
      r.problem(target, 'unresolved');
      return whole;
    }
    const kept = members === false ? entries.slice(0, 1) : entries;
    const trailing = /\n\s*$/.test(whole) ? '\n' : '';
    return `${kept.map((e) => `${indent}\`\`\`{shelfmark:api}\n${indent}${JSON.stringify(e)}\n${indent}\`\`\`\n`).join('\n')}${trailing}`;
  });
}

/** The `options:` mapping of a directive's block, or undefined when it has none. */
function optionsOf(block: string): { members?: unknown } | undefined {
  const lines = block.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0 || !/^\s*options:\s*$/.test(lines[0])) return undefined;
  const width = Math.min(...lines.map((l) => /^\s*/.exec(l)![0].length));
  try {
    const parsed = yaml.load(lines.map((l) => l.slice(width)).join('\n')) as { options?: unknown } | undefined;
    return parsed && typeof parsed.options === 'object' && parsed.options !== null ? (parsed.options as { members?: unknown }) : {};
  } catch {
    return {};
  }
}
