/**
 * Team library policies: stored per team, applied to search (filter), context and add
 * (403 access_denied). The only code that touches the Policy model. Reads are cached for
 * a second per instance (searches are hot); a change is seen by this instance at once.
 */
import type { PolicyModel, PolicyRecord } from '../store/models/policy';
import {
  applyPolicyPatch,
  defaultPolicy,
  isDefaultPolicy,
  libraryAllowedByPolicy,
  type LibraryFilters,
  type LibraryPolicy,
  type PolicyLibrary,
  type PolicyPatch,
} from './policy';
import type { Principal } from './principal';

export interface AppliedPolicy {
  /** True when the caller's team has a policy that differs from the default. */
  applied: boolean;
  allows(library: PolicyLibrary): boolean;
  /** The filters behind `allows` when a policy applies (library search turns them into index filters). */
  filters?: LibraryFilters;
}

const NO_POLICY: AppliedPolicy = { applied: false, allows: () => true };

export class PolicyService {
  private readonly cache = new Map<string, { at: number; policy: LibraryPolicy }>();

  constructor(
    private readonly Policy: PolicyModel,
    private readonly cacheMs = 1000,
  ) {}

  async get(teamId: string, options: { fresh?: boolean } = {}): Promise<LibraryPolicy> {
    const hit = this.cache.get(teamId);
    if (!options.fresh && hit && Date.now() - hit.at < this.cacheMs) return hit.policy;
    const doc = await this.Policy.findById(teamId).lean<PolicyRecord>();
    const policy = doc ? { libraryFilters: { ...defaultPolicy().libraryFilters, ...doc.libraryFilters } } : defaultPolicy();
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(teamId, { at: Date.now(), policy });
    return policy;
  }

  async patch(teamId: string, patch: PolicyPatch, updatedBy: string | null): Promise<LibraryPolicy> {
    const next = applyPolicyPatch(await this.get(teamId, { fresh: true }), patch);
    await this.Policy.updateOne({ _id: teamId }, { $set: { libraryFilters: next.libraryFilters, updatedAt: new Date(), updatedBy } }, { upsert: true });
    this.cache.delete(teamId);
    return this.get(teamId, { fresh: true });
  }

  async deleteForTeam(teamId: string): Promise<void> {
    await this.Policy.deleteOne({ _id: teamId });
    this.cache.delete(teamId);
  }

  /** The policy acting for a caller: its default team's. Anonymous and service callers have none. */
  async forPrincipal(principal: Principal): Promise<AppliedPolicy> {
    if (principal.kind !== 'user' || !principal.defaultTeamId) return NO_POLICY;
    const policy = await this.get(principal.defaultTeamId);
    if (isDefaultPolicy(policy)) return NO_POLICY;
    return { applied: true, allows: (library) => libraryAllowedByPolicy(policy, library), filters: policy.libraryFilters };
  }
}
