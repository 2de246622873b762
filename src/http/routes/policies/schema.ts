/** The team-policy routes' contract (see http/validate.ts). */
import { policyPatchSchema } from '../../../auth/policy';
import type { RouteSchema } from '../../validate';
import { teamQuery } from '../shared-schema';

const tag = 'Policies';

export const policySchemas = {
  'policies.read': { summary: "The library policy of the caller's team (or ?teamId=)", tag, query: teamQuery, errors: ['team_not_found'] },
  'policies.update': {
    summary: "Change the team's library policy (owners, admins)",
    tag,
    query: teamQuery,
    body: policyPatchSchema,
    errors: ['team_not_found'],
  },
  'policies.preview': {
    summary: 'Which libraries the team would see under a policy change not saved yet (nothing is written)',
    tag,
    query: teamQuery,
    body: policyPatchSchema,
    errors: ['team_not_found'],
  },
} satisfies Record<string, RouteSchema>;
