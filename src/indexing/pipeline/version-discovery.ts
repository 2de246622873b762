/**
 * Applies a library's version rule (domain/version-rule.ts) after a check of its latest
 * version, from the tags that check listed (its clone's, or the remote's advertisement when
 * the check needed no clone): tags the rule selects and that are not indexed
 * yet are queued as version builds (`trigger: new-tag`); indexed tag versions the rule no
 * longer selects are retired (removed from the record first, so readers stop addressing
 * them, then their snippets deleted). Versions built from branches, and those the repository
 * lists in `previousVersions`, are never retired by the rule.
 */
import type { JobContext } from '../jobs/worker';
import type { IndexingDeps } from './deps';
import { selectVersions } from '../../domain/version-rule';

export async function applyVersionRule(
  ctx: JobContext,
  deps: IndexingDeps,
  tags: readonly string[],
  keep: readonly string[],
  options: { retire?: boolean } = {},
): Promise<void> {
  const { job } = ctx;
  const lib = await deps.libraries.get(job.libraryId, { fresh: true });
  const rule = lib?.versionRule;
  if (!lib || !rule) return;
  const wanted = selectVersions(rule, tags);
  const indexed = new Set(lib.versions.filter((v) => v.version !== 'latest').map((v) => v.version));
  const fresh = wanted.filter((t) => !indexed.has(t));
  if (fresh.length > 0) {
    const queued = await deps.enqueueVersions(job, fresh, [...tags], 'new-tag');
    if (queued.length > 0) ctx.log('info', `version rule: queued ${queued.join(', ')}`);
  }
  // Without the repo config (a check that listed the remote's tags and did not clone) the
  // versions previousVersions protects are unknown: nothing is retired then.
  if (options.retire === false) return;
  const retire = [...indexed].filter((v) => tags.includes(v) && !wanted.includes(v) && !keep.includes(v));
  if (retire.length === 0) return;
  let removed: string[] = [];
  await deps.libraries.modify(lib._id, (current) => {
    // A version being built again is left alone (its build would publish it back).
    removed = current.versions.filter((v) => retire.includes(v.version) && v.state === 'finalized').map((v) => v.version);
    return removed.length === 0 ? null : { versions: current.versions.filter((v) => !removed.includes(v.version)) };
  });
  for (const version of removed) await deps.store.deleteGenerations({ libraryId: lib._id, version });
  if (removed.length > 0) ctx.log('info', `version rule: retired ${removed.join(', ')}`);
}
