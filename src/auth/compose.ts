/**
 * Builds the authentication, authorization, limits and usage services on one MongoDB
 * connection, creates their indexes, and runs their housekeeping (purging expired
 * sessions and ended rate-limit windows with timed deleteMany: FerretDB has no TTL index).
 */
import type { Connection } from 'mongoose';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { authModels } from '../store/models/auth';
import { LockStore, lockModel } from '../store/locks';
import { UsageStore } from '../store/usage-store';
import { UserService } from './users';
import { TeamService } from './teams';
import { ApiKeyService } from './keys';
import { SessionService } from './sessions';
import { SettingsService } from './settings';
import { PolicyService } from './policies';
import { IncrementCounter, RateLimiter, SlotCounter, type CounterStrategy } from './rate-limiter';
import { UsageService } from './usage';
import { CredentialService } from './credentials';
import { AuthService } from './authenticator';
import { trustedProxyMatcher, type TrustCheck } from './client-address';
import { AccountService } from './accounts';

export interface AuthServices {
  /** Credentials → principal; login, logout, change of credentials. */
  authenticator: AuthService;
  users: UserService;
  /** Cross-store account administration (user deletion cascades, teams with owners). */
  accounts: AccountService;
  teams: TeamService;
  keys: ApiKeyService;
  sessions: SessionService;
  settings: SettingsService;
  policies: PolicyService;
  rateLimiter: RateLimiter;
  usage: UsageService;
  credentials: CredentialService;
  /** Whether a peer address is a trusted proxy (TRUSTED_PROXIES). */
  trustedProxy: TrustCheck;
  /** Stops the housekeeping timer and writes pending usage. */
  authHousekeeping: { stop(): Promise<void> };
}

/** How long usage metrics are kept. */
export const USAGE_RETENTION_DAYS = 400;
const HOUSEKEEPING_MS = 60_000;

export async function createAuthServices(deps: {
  mongo: Connection;
  config: Readonly<Config>;
  log: Logger;
  counter?: 'increment' | 'slots';
}): Promise<AuthServices> {
  const { mongo, config, log } = deps;
  const models = authModels(mongo);
  await Promise.all(Object.values(models).map((m) => m.createIndexes()));

  const counterName = deps.counter ?? ((await isFerretDb(mongo)) ? 'slots' : 'increment');
  const counter: CounterStrategy = counterName === 'slots' ? new SlotCounter(models.RateCounter) : new IncrementCounter(models.RateCounter);

  const users = new UserService(models.User, new LockStore(lockModel(mongo)));
  const policies = new PolicyService(models.Policy);
  const teams = new TeamService(models.Team, users, (teamId) => policies.deleteForTeam(teamId));
  const keys = new ApiKeyService(models.ApiKey, log);
  const sessions = new SessionService(models.Session, config.secret, config.sessionTtlHours * 3600_000);
  const settings = new SettingsService(models.Settings);
  const rateLimiter = new RateLimiter(models.RateCounter, counter, config.rateLimits);
  const usage = new UsageService(new UsageStore(models.UsageDaily, models.UsageQuery), log);
  const credentials = new CredentialService(models.Credential, config.secret, log);
  const authenticator = new AuthService({ config, users, keys, sessions });

  let ticks = 0;
  const timer = setInterval(() => {
    ticks++;
    const jobs: Array<Promise<unknown>> = [rateLimiter.purge(), sessions.purgeExpired()];
    if (ticks % 60 === 1) jobs.push(usage.purgeOlderThan(USAGE_RETENTION_DAYS));
    Promise.all(jobs).catch((error: unknown) => log.warn({ err: (error as Error).message }, 'auth housekeeping failed; will retry'));
  }, HOUSEKEEPING_MS);
  timer.unref();

  return {
    authenticator,
    users,
    accounts: new AccountService({ users, teams, keys, sessions, credentials }),
    teams,
    keys,
    sessions,
    settings,
    policies,
    rateLimiter,
    usage,
    credentials,
    trustedProxy: trustedProxyMatcher(config.trustedProxies),
    authHousekeeping: {
      async stop() {
        clearInterval(timer);
        await usage.stop();
      },
    },
  };
}

/** FerretDB reports itself in buildInfo; its `$inc` is not safe under concurrency. */
async function isFerretDb(mongo: Connection): Promise<boolean> {
  try {
    const info = await mongo.db?.admin().command({ buildInfo: 1 });
    return Boolean(info && ('ferretdbVersion' in info || 'ferretdbFeatures' in info));
  } catch {
    return false;
  }
}
