/** Plans decide what a team may do; for now, whether it may add private repositories. */
import type { PlanId } from '../store/models/team';

export type { PlanId };

export interface Plan {
  id: PlanId;
  name: string;
  privateRepositories: boolean;
}

export const PLANS: readonly Plan[] = [
  { id: 'free', name: 'Free', privateRepositories: false },
  { id: 'pro', name: 'Pro', privateRepositories: true },
  { id: 'enterprise', name: 'Enterprise', privateRepositories: true },
];

export const PLAN_IDS = PLANS.map((p) => p.id) as [PlanId, ...PlanId[]];

export function planById(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

export function planIncludesPrivateRepos(id: string): boolean {
  return planById(id)?.privateRepositories === true;
}
