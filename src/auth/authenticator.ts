/**
 * Turns presented credentials into a principal, and runs the login, logout and
 * credential-change use cases. No Koa types: the HTTP middleware extracts the credentials,
 * the MCP route can do the same.
 *
 * `identify` is synchronous and names the rate-limit identity before any I/O, so the
 * caller can count the request while the key and user are looked up.
 */
import type { Config } from '../config';
import type { UserRecord } from '../store/models/user';
import { ForbiddenError, InvalidApiKeyError, ValidationError } from '../errors';
import { API_KEY_PATTERN, API_KEY_PREFIX, hashApiKey, safeEqual } from './crypto';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords';
import type { Principal } from './principal';
import type { ApiKeyService } from './keys';
import type { IssuedSession, SessionClaims, SessionService } from './sessions';
import { userPrincipal, type UserService } from './users';
import type { RateTier } from './rate-limiter';

export interface PresentedCredentials {
  /** An explicit key (Authorization: Bearer, SHELFMARK_API_KEY or X-API-Key). */
  apiKey?: string;
  /** The session cookie's value. */
  sessionToken?: string;
  /** The X-CSRF-Token header's value. */
  csrfToken?: string;
  /** POST, PUT, PATCH or DELETE: a cookie session then needs the CSRF token. */
  unsafeMethod: boolean;
  clientAddress: string;
}

export interface Authenticated {
  principal: Principal;
  /** The default administrator's credentials are unchanged: only changing them is allowed. */
  mustChangePassword: boolean;
  /** The session id, for a cookie session. */
  sessionId?: string;
  /** A session cookie came that is no longer valid (expired, signed out, or forged). */
  staleSession?: boolean;
}

export interface IdentifiedRequest {
  /** Who the rate limit counts (a key hash, a user, or a client address). */
  identity: string;
  tier: RateTier;
  /** Looks the credentials up (memoised). Rejects with 401 for unknown or revoked keys. */
  resolve(): Promise<Authenticated>;
}

const SERVICE: Authenticated = { principal: { kind: 'service' }, mustChangePassword: false };

/** Bound on the key-hash → owner memo (cleared when full). */
const MAX_KNOWN_KEYS = 10_000;

export class AuthService {
  /** API key hash → its owner's user id (immutable), so both can be read at once. */
  private readonly keyOwners = new Map<string, string>();

  constructor(
    private readonly deps: {
      config: Pick<Config, 'apiKey' | 'defaultAdmin'>;
      users: UserService;
      keys: ApiKeyService;
      sessions: SessionService;
    },
  ) {}

  identify(credentials: PresentedCredentials): IdentifiedRequest {
    const { config } = this.deps;
    const address = credentials.clientAddress;
    if (credentials.apiKey !== undefined) {
      const value = credentials.apiKey;
      if (config.apiKey && safeEqual(value, config.apiKey)) {
        return { identity: `svc:${address}`, tier: 'key', resolve: async () => SERVICE };
      }
      if (!value.startsWith(API_KEY_PREFIX))
        throw new InvalidApiKeyError(`Invalid API key: keys start with "${API_KEY_PREFIX}". Create one in the dashboard (API keys).`);
      if (!API_KEY_PATTERN.test(value)) throw new InvalidApiKeyError('Invalid API key: it is malformed (truncated or with extra characters?).');
      const hash = hashApiKey(value);
      return { identity: `key:${hash.slice(0, 32)}`, tier: 'key', resolve: memo(() => this.resolveKey(hash)) };
    }
    if (credentials.sessionToken) {
      const claims = this.deps.sessions.verifyToken(credentials.sessionToken);
      if (claims) {
        return { identity: `user:${claims.sub}`, tier: 'key', resolve: memo(() => this.resolveSession(claims, credentials)) };
      }
    }
    const anonymous: Authenticated = {
      principal: { kind: 'anonymous', clientId: address },
      mustChangePassword: false,
      ...(credentials.sessionToken ? { staleSession: true } : {}),
    };
    return { identity: `ip:${address}`, tier: 'anonymous', resolve: async () => anonymous };
  }

  private async resolveKey(hash: string): Promise<Authenticated> {
    // A key's owner never changes, so once seen the key and its user are read in parallel
    // (one round trip). Both are read fresh every time: a deleted key or user fails at once.
    const knownOwner = this.keyOwners.get(hash);
    const [key, guessedUser] = await Promise.all([this.deps.keys.lookupByHash(hash), knownOwner ? this.deps.users.getForAuth(knownOwner) : undefined]);
    if (!key) {
      this.keyOwners.delete(hash);
      throw new InvalidApiKeyError('Invalid API key: it is unknown or has been deleted.');
    }
    const user = knownOwner === key.userId && guessedUser !== undefined ? guessedUser : await this.deps.users.getForAuth(key.userId);
    if (!user) throw new InvalidApiKeyError('Invalid API key: it is unknown or has been deleted.');
    if (this.keyOwners.size >= MAX_KNOWN_KEYS) this.keyOwners.clear();
    this.keyOwners.set(hash, key.userId);
    this.deps.keys.touch(key);
    const principal = userPrincipal(user, 'api_key', key._id);
    return { principal: key.projectId ? { ...principal, projectId: key.projectId } : principal, mustChangePassword: user.mustChangePassword };
  }

  private async resolveSession(claims: SessionClaims, credentials: PresentedCredentials): Promise<Authenticated> {
    const [session, user] = await Promise.all([this.deps.sessions.find(claims.jti), this.deps.users.getForAuth(claims.sub)]);
    if (!session || session.userId !== claims.sub || !user) {
      // A logged-out or expired cookie is no credential at all: the caller is anonymous.
      return { principal: { kind: 'anonymous', clientId: credentials.clientAddress }, mustChangePassword: false, staleSession: true };
    }
    if (credentials.unsafeMethod && !(credentials.csrfToken && safeEqual(credentials.csrfToken, claims.csrf))) {
      throw new ForbiddenError('Missing or wrong X-CSRF-Token header: send the value of the shelfmark_csrf cookie with every write made with a session.');
    }
    return { principal: userPrincipal(user, 'session'), mustChangePassword: user.mustChangePassword, sessionId: claims.jti };
  }

  /** Checks a username and password; opens a session. 401 on a mismatch (same message either way). */
  async login(username: string, password: string): Promise<{ user: UserRecord; session: IssuedSession }> {
    const user = await this.deps.users.findByUsername(username);
    const ok = await verifyPassword(user?.passwordHash, password);
    if (!user || !ok) throw new InvalidApiKeyError('Wrong username or password.');
    return { user, session: await this.deps.sessions.create(user._id) };
  }

  logout(sessionId: string): Promise<void> {
    return this.deps.sessions.revoke(sessionId);
  }

  /**
   * Changes a user's password (and optionally username) after checking the current one,
   * clears the forced change of the default credentials, and ends the user's other sessions.
   */
  async changeCredentials(
    userId: string,
    input: { currentPassword: string; newPassword: string; username?: string },
    keepSessionId?: string,
  ): Promise<UserRecord> {
    const user = await this.deps.users.require(userId);
    if (!(await verifyPassword(user.passwordHash, input.currentPassword))) throw new ValidationError('currentPassword is wrong.', 'currentPassword');
    const pw = input.newPassword;
    if (pw.length < MIN_PASSWORD_LENGTH || pw.length > MAX_PASSWORD_LENGTH) {
      throw new ValidationError(`newPassword must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`, 'newPassword');
    }
    if (pw === this.deps.config.defaultAdmin.password) throw new ValidationError('newPassword must not be the default password.', 'newPassword');
    if (pw === input.currentPassword) throw new ValidationError('newPassword must differ from the current password.', 'newPassword');
    const username = input.username !== undefined && input.username !== user.username ? input.username : undefined;
    const updated = await this.deps.users.setCredentials(userId, { password: pw, username });
    await this.deps.sessions.revokeAllOf(userId, keepSessionId);
    return updated;
  }
}

function memo<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
}
