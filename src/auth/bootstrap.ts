/**
 * First start of an installation: creates the default administrator (flagged to change
 * the shipped credentials), the "default" team on the enterprise plan, and the
 * permission settings. Warns at every start while the default credentials are unchanged.
 */
import type { Config } from '../config';
import type { Logger } from '../logger';
import { DEFAULT_CREDENTIALS_MESSAGE } from './authorize';
import type { SettingsService } from './settings';
import type { TeamService } from './teams';
import type { UserService } from './users';

export const DEFAULT_TEAM_NAME = 'default';
/** Fixed ids, so instances starting together create them once (the second insert is E11000). */
export const DEFAULT_ADMIN_ID = 'usr_admin';
export const DEFAULT_TEAM_ID = 'team_default';

export async function bootstrapAuth(services: {
  config: Readonly<Config>;
  log: Logger;
  users: UserService;
  teams: TeamService;
  settings: SettingsService;
}): Promise<void> {
  const { config, log, users, teams, settings } = services;
  await settings.ensure();
  if ((await users.count()) === 0) {
    const team =
      (await teams.findByName(DEFAULT_TEAM_NAME)) ??
      (await teams.create({ id: DEFAULT_TEAM_ID, name: DEFAULT_TEAM_NAME, plan: 'enterprise' }).catch(() => teams.findByName(DEFAULT_TEAM_NAME)));
    try {
      await users.create({
        id: DEFAULT_ADMIN_ID,
        username: config.defaultAdmin.username,
        password: config.defaultAdmin.password,
        role: 'admin',
        mustChangePassword: true,
        memberships: team ? [{ teamId: team._id, role: 'owner' }] : [],
      });
      log.info({ username: config.defaultAdmin.username }, 'created the default administrator');
    } catch (error) {
      // Another instance starting at the same moment created it first.
      if (!/taken/.test((error as Error).message)) throw error;
    }
  }
  if (await users.anyMustChangePassword()) {
    log.warn(`The default administrator credentials (user "${config.defaultAdmin.username}") are unchanged. ${DEFAULT_CREDENTIALS_MESSAGE}`);
  }
}
