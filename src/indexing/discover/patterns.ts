/**
 * The path patterns of `context7.json`: `folders` (prefixes from the root), `excludeFolders`
 * (names, paths or globs matched at any depth, `./x` only at the root) and `excludeFiles`
 * (file names, or globs). Globs know `*` (within a segment), `**` (any number of segments)
 * and `?` (one character).
 */

/** Regex source for a glob, without anchors. */
export function globToRegexSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/';
      // `**/` may match no segment at all, so `docs/**/internal` matches `docs/internal`.
      out += slashAfter ? '(?:[^/]+/)*' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return out;
}

/** Removes `./`, leading and trailing slashes; tells whether the pattern was tied to the root. */
function normalise(pattern: string): { body: string; rooted: boolean } {
  const trimmed = pattern.trim();
  const rooted = trimmed.startsWith('./') || trimmed.startsWith('/');
  return { body: trimmed.replace(/^(\.\/|\/)+/, '').replace(/\/+$/, ''), rooted };
}

/**
 * Whether a file path lies in a folder matched by an `excludeFolders` pattern (or is itself
 * matched, since Context7 users put file globs like `**\/*.fix.txt` there too).
 */
export function excludeFolderMatcher(pattern: string): ((path: string) => boolean) | undefined {
  const { body, rooted } = normalise(pattern);
  if (body === '' || body === '.') return undefined;
  const re = new RegExp(`${rooted ? '^' : '(?:^|/)'}${globToRegexSource(body)}(?:/|$)`);
  return (path) => re.test(path);
}

/** Whether a file is matched by an `excludeFiles` entry: a file name (or glob of one), or a path glob. */
export function excludeFileMatcher(pattern: string): ((path: string) => boolean) | undefined {
  const { body, rooted } = normalise(pattern);
  if (body === '') return undefined;
  if (!body.includes('/')) {
    const re = new RegExp(`^${globToRegexSource(body)}$`);
    return (path) => re.test(path.slice(path.lastIndexOf('/') + 1));
  }
  const re = new RegExp(`${rooted ? '^' : '(?:^|/)'}${globToRegexSource(body)}$`);
  return (path) => re.test(path);
}

/**
 * A `folders` entry: returns how many leading segments of the path the entry names (so that
 * default exclusions inside them can be waived), or undefined when the path is outside. An
 * entry naming the file itself names all its segments.
 */
export function includeFolderMatcher(pattern: string): ((path: string) => number | undefined) | undefined {
  const { body } = normalise(pattern);
  if (body === '.' || body === '') return () => 0;
  const re = new RegExp(`^${globToRegexSource(body)}(?:/|$)`);
  return (path) => {
    const m = re.exec(path);
    if (!m) return undefined;
    return m[0].length === path.length ? path.split('/').length : m[0].split('/').length - 1;
  };
}
