/** The sign-in routes' contract (see http/validate.ts). */
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../../../auth/passwords';
import type { RouteSchema } from '../../validate';

const tag = 'Auth';

export const authSchemas = {
  'auth.login': {
    summary: 'Sign in to the dashboard: sets the session cookie and the CSRF cookie',
    tag,
    body: z.object({ username: z.string().min(1).max(200), password: z.string().min(1).max(MAX_PASSWORD_LENGTH) }),
  },
  'auth.logout': { summary: 'Sign out (ends the session of the cookie)', tag },
  'auth.me.read': { summary: 'Who is calling: user, role, teams, and whether the password must change', tag },
  'auth.me.update': {
    summary: "Change the caller's default team",
    tag,
    body: z.object({ defaultTeamId: z.string().min(1).max(100) }).strict(),
    errors: ['team_not_found'],
  },
  'auth.password': {
    summary: "Change the caller's password (and, once, the default administrator's username)",
    tag,
    body: z
      .object({
        currentPassword: z.string().min(1).max(MAX_PASSWORD_LENGTH),
        newPassword: z.string().max(MAX_PASSWORD_LENGTH),
        username: z.string().trim().min(1).max(64).optional(),
      })
      .strict(),
    errors: ['conflict'],
  },
} satisfies Record<string, RouteSchema>;
