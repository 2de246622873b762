/** Test helpers on top of the harness: users, keys and sessions through the real services. */
import type { TestApp } from './harness';

/** The default admin with changed credentials and an API key (the usual starting point). */
export async function adminKey(t: TestApp): Promise<string> {
  await t.services.auth.User.updateOne({ _id: 'usr_admin' }, { $set: { mustChangePassword: false } });
  const { value } = await t.services.keys.create('usr_admin', 'test admin');
  return value;
}

/** A member (optionally owner of a new team with a plan) and their key. */
export async function memberKey(t: TestApp, options: { teamPlan?: 'free' | 'pro' | 'enterprise'; owner?: boolean; username?: string } = {}): Promise<{ key: string; userId: string; teamId?: string }> {
  const user = await t.services.accounts.createUser({ username: options.username ?? `m${Math.random().toString(36).slice(2, 10)}`, password: 'password123', role: 'member' });
  let teamId: string | undefined;
  if (options.teamPlan) {
    const team = await t.services.accounts.createTeam({ name: `team ${user.username}`, plan: options.teamPlan, ownerId: options.owner === false ? null : user._id });
    teamId = team._id;
    if (options.owner === false) await t.services.accounts.addMember(team._id, user._id, 'member');
  }
  const { value } = await t.services.keys.create(user._id, 'member key');
  return { key: value, userId: user._id, teamId };
}
