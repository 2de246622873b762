/**
 * How this deployment's clones reach Git servers: whom TLS trusts (system CAs, GIT_CA_FILE,
 * GIT_TLS_PINNED) and where a redirect may lead (for the `git` host the
 * GIT_ALLOWED_URL_PREFIXES list, for a hosted service its base URL) — the same lists that
 * admitted the URL when the library was added, applied again to every redirect.
 */
import type { Config } from '../../config';
import { repoUrlAllowList, type GitHost } from '../../domain/library-ids';
import { readCaBundle, TlsTrust } from '../../net/tls-trust';
import type { CloneOptions } from '../sources/git';

// Parsing the CA bundles costs a few milliseconds: once per configuration, not per job.
const trustByConfig = new WeakMap<Readonly<Config>, TlsTrust>();

/** Clone options for a repository of `host` under `config`. */
export function gitTransport(config: Readonly<Config>, host: GitHost): CloneOptions {
  let tls = trustByConfig.get(config);
  if (!tls) {
    tls = new TlsTrust({ extraCaPem: config.gitTls.caFile ? readCaBundle(config.gitTls.caFile) : undefined, pins: config.gitTls.pins });
    trustByConfig.set(config, tls);
  }
  // Redirects only ever lead to http(s) URLs, so file: entries need not be resolved here.
  const allowed = repoUrlAllowList(host, config.gitHosts, config.gitAllowedPrefixes, { lexicalFiles: true });
  return { tls, allowRedirect: (url) => allowed.allows(url.href) };
}
