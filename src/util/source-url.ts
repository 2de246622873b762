/**
 * Source addresses shown to callers. Libraries can be cloned from this server's disk (`file:`
 * URLs: the `git` host with a `file:` allow-list prefix, or a hosted base URL pointing at a
 * local mirror); such a path is the server's business and is never shown to a caller, admins
 * included. A snippet from such a repository names its file by its place in the repository.
 */

/** Whether a URL names a place on this server's disk. */
export function isServerPathUrl(url: string): boolean {
  return /^\s*file:/i.test(url);
}

/** A file's place in its repository, `docs/a%20b.md#L3`. */
export function repoRelativeUrl(filePath: string, line: number): string {
  return `${filePath.split('/').map(encodeURIComponent).join('/')}#L${line}`;
}

/** A snippet's source URL as callers see it (snippets indexed before this rule carry the path). */
export function presentedSourceUrl(doc: { url: string; path: string; startLine: number }): string {
  return isServerPathUrl(doc.url) ? repoRelativeUrl(doc.path, doc.startLine) : doc.url;
}

/** A repository's URL as callers see it: empty for a repository on this server's disk. */
export function presentedRepoUrl(url: string): string {
  return isServerPathUrl(url) ? '' : url;
}

/** Free text (a job's error or log line) with every `file:` URL replaced by a neutral phrase. */
export function hideServerPaths(text: string): string {
  return text.replace(/file:[^\s'"`<>)\]]*/gi, '(a repository on this server)');
}
