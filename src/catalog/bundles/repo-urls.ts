/**
 * Where an imported library comes from: a bundle's `repoUrl`/`cloneUrl` are what a refresh
 * (manual or scheduled) would clone, so they pass the same rules as `POST /v2/add/repo`
 * (domain/library-ids.ts `locateRepo`) and are made again from them: a hosted library's (GitHub,
 * GitLab, Bitbucket) from its id under this server's base URL of its host, whatever the
 * bundle says; any other Git server's only when under GIT_ALLOWED_URL_PREFIXES.
 * A URL that does not pass, or names another library, is dropped: the library is served
 * from the bundle and cannot be refreshed until it is added from its repository.
 * Website, llms.txt, archive and OpenAPI libraries are never cloned: no clone URL, and a
 * page address only when it is a plain http(s) URL.
 */
import type { Config } from '../../config';
import { isGitHost, locateRepo } from '../../domain/library-ids';
import type { BundleHeader } from './format';

export interface ImportedUrls {
  repoUrl: string;
  cloneUrl: string;
  /** Why the bundle's URLs were not kept (for the import's answer), when they were not. */
  dropped?: string;
}

export function importedRepoUrls(config: Readonly<Config>, library: BundleHeader['library'], clientId: string): ImportedUrls {
  const { source } = library;
  if (!isGitHost(source)) {
    return { repoUrl: isPlainHttpUrl(library.repoUrl) ? library.repoUrl : '', cloneUrl: '' };
  }
  // A hosted library's repository is its id on this server's host, as an add of it would clone.
  const given = source === 'git' ? library.cloneUrl || library.repoUrl : `${config.gitHosts[source]}${clientId}`;
  if (!given) return { repoUrl: '', cloneUrl: '' };
  try {
    const location = locateRepo(source, given, config.gitHosts, config.gitAllowedPrefixes);
    if (location.libraryId !== clientId || location.ref !== undefined) throw new Error('another library');
    return { repoUrl: location.webUrl, cloneUrl: location.cloneUrl };
  } catch {
    return {
      repoUrl: '',
      cloneUrl: '',
      dropped: `its repository URL is not one this server may clone (${source === 'git' ? 'not under GIT_ALLOWED_URL_PREFIXES' : `no repository ${clientId} under ${config.gitHosts[source]}`}), so it is served from the bundle and cannot be refreshed until it is added from its repository`,
    };
  }
}

function isPlainHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}
