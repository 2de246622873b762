/**
 * The admin API's contract: each operation's path parameters, query and body (zod), with
 * the summary and extra error codes the generated OpenAPI document shows. Handlers receive
 * the parsed input on `ctx.state.input` (http/validate.ts).
 */
import { z } from 'zod';
import { PLAN_IDS } from '../../../auth/plans';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../auth/passwords';
import { CREDENTIAL_HOSTS } from '../../../auth/credentials';
import { ANONYMOUS_OPERATIONS } from '../../../auth/settings';
import { query, type RouteSchema } from '../../validate';

const id = z.string().min(1).max(200);
const idParams = z.object({ id });
const memberParams = z.object({ id, userId: id });
const hostParams = z.object({ host: z.enum(CREDENTIAL_HOSTS, { errorMap: () => ({ message: `must be one of: ${CREDENTIAL_HOSTS.join(', ')}` }) }) });
const password = z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(MAX_PASSWORD_LENGTH);
/** A usage window and its chart buckets: hourly ones (`perHour`) for windows of up to 7 days. */
const usageWindow = z
  .object({
    days: query.int(1, 90, 30),
    bucket: query.oneOf(['day', 'hour'], 'day').openapi({ description: 'hour: also perHour, the last days × 24 UTC hours (days at most 7)' }),
  })
  .refine((q) => q.bucket === 'day' || q.days <= 7, { message: 'bucket=hour needs days of at most 7', path: ['bucket'] });

const anonymous = z
  .object(Object.fromEntries(ANONYMOUS_OPERATIONS.map((op) => [op, z.boolean()])) as Record<(typeof ANONYMOUS_OPERATIONS)[number], z.ZodBoolean>)
  .partial()
  .strict();

const keys = 'API keys';
const users = 'Users';
const teams = 'Teams';
const settings = 'Settings';

export const adminSchemas = {
  'keys.list': { summary: "The signed-in user's API keys (prefix, name, last use; never the value)", tag: keys },
  'keys.create': {
    summary: 'Create an API key: its value is in this answer only',
    tag: keys,
    status: 201,
    body: z
      .object({
        name: z.string().trim().min(1).max(100),
        projectId: z.string().max(40).optional().openapi({
          description:
            "Bind the key to a project (prj_…): requests with it answer at the project's pinned versions unless they name a version or another project",
          pattern: '^prj_[a-z0-9]{16}$',
        }),
      })
      .strict(),
    errors: ['not_found'],
  },
  'keys.delete': { summary: 'Delete one of your API keys', tag: keys, params: idParams, errors: ['not_found'] },

  'users.list': { summary: 'All users (admins)', tag: users },
  'users.create': {
    summary: 'Create a user (admins)',
    tag: users,
    status: 201,
    body: z
      .object({
        username: z.string().trim().min(1).max(64),
        password,
        role: z.enum(['admin', 'member']).default('member'),
        teamId: z.string().min(1).max(100).optional(),
        teamRole: z.enum(['owner', 'member']).default('member'),
        mustChangePassword: z.boolean().default(false),
      })
      .strict(),
    errors: ['team_not_found', 'conflict'],
  },
  'users.read': { summary: 'One user (admins)', tag: users, params: idParams, errors: ['user_not_found'] },
  'users.update': {
    summary: "Change a user's role, default team or password (admins)",
    tag: users,
    params: idParams,
    body: z
      .object({ role: z.enum(['admin', 'member']), defaultTeamId: z.string().min(1).max(100).nullable(), password })
      .partial()
      .strict(),
    errors: ['user_not_found', 'team_not_found', 'conflict'],
  },
  'users.delete': { summary: 'Delete a user and their keys and sessions (admins)', tag: users, params: idParams, errors: ['user_not_found', 'conflict'] },

  'teams.list': { summary: 'Teams the caller can see (all, for admins)', tag: teams },
  'teams.create': {
    summary: 'Create a team (admins)',
    tag: teams,
    status: 201,
    body: z.object({ name: z.string().trim().min(1).max(80), plan: z.enum(PLAN_IDS).default('free'), ownerId: z.string().min(1).max(100).optional() }).strict(),
    errors: ['user_not_found', 'conflict'],
  },
  'teams.read': { summary: 'A team and its members', tag: teams, params: idParams, errors: ['team_not_found'] },
  'teams.update': {
    summary: 'Rename a team (owners) or change its plan (admins)',
    tag: teams,
    params: idParams,
    body: z
      .object({ name: z.string().trim().min(1).max(80), plan: z.enum(PLAN_IDS) })
      .partial()
      .strict(),
    errors: ['team_not_found'],
  },
  'teams.delete': { summary: 'Delete a team that owns no private library (admins)', tag: teams, params: idParams, errors: ['team_not_found', 'conflict'] },
  'teams.members.add': {
    summary: 'Add a member by user id or username (owners, admins)',
    tag: teams,
    status: 201,
    params: idParams,
    body: z
      .object({
        userId: z.string().min(1).max(100).optional(),
        username: z.string().min(1).max(64).optional(),
        role: z.enum(['owner', 'member']).default('member'),
      })
      .strict()
      .refine((b) => b.userId !== undefined || b.username !== undefined, { message: 'userId or username is required', path: ['userId'] }),
    errors: ['team_not_found', 'user_not_found'],
  },
  'teams.members.update': {
    summary: "Change a member's role (owners, admins)",
    tag: teams,
    params: memberParams,
    body: z.object({ role: z.enum(['owner', 'member']) }).strict(),
    errors: ['team_not_found', 'user_not_found'],
  },
  'teams.members.remove': {
    summary: 'Remove a member (owners, admins, or the member)',
    tag: teams,
    params: memberParams,
    errors: ['team_not_found', 'user_not_found'],
  },

  'plans.read': { summary: 'The plans and what they include', tag: settings },
  'permissions.read': { summary: 'What anonymous callers may do (admins)', tag: settings },
  'permissions.update': { summary: 'Change what anonymous callers may do (admins)', tag: settings, body: z.object({ anonymous }).strict() },
  'usage.read': {
    summary:
      "Usage summary per UTC day (and hour, with bucket=hour) and channel (api, txt, mcp, playground: the dashboard's own), top libraries, callers, queries that found nothing (admins)",
    tag: settings,
    query: usageWindow,
  },

  'credentials.list': { summary: "The signed-in user's hosting tokens (host and last 4 characters only)", tag: keys },
  'credentials.put': {
    summary: 'Connect a hosting token (used for private repositories on that host)',
    tag: keys,
    params: hostParams,
    body: z
      .object({
        token: z
          .string()
          .trim()
          .min(1)
          .max(4096)
          .regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces'),
      })
      .strict(),
  },
  'credentials.delete': { summary: 'Disconnect a hosting token', tag: keys, params: hostParams, errors: ['not_found'] },
} satisfies Record<string, RouteSchema>;
