/**
 * Dashboard sessions: a JWT (HS256, server secret) in an httpOnly cookie whose `jti` names a
 * session record in MongoDB, so logout takes effect at once and every instance shares
 * sessions. The JWT also carries the CSRF token of the double-submit check. The only code
 * that touches the Session model.
 */
import jwt from 'jsonwebtoken';
import type { SessionModel, SessionRecord } from '../store/models/session';
import { randomToken } from './crypto';

export interface SessionClaims {
  /** The session id. */
  jti: string;
  /** The user id. */
  sub: string;
  csrf: string;
}

export interface IssuedSession {
  token: string;
  csrf: string;
  jti: string;
  expiresAt: Date;
}

export class SessionService {
  constructor(
    private readonly Session: SessionModel,
    private readonly secret: string,
    private readonly ttlMs: number,
  ) {}

  async create(userId: string): Promise<IssuedSession> {
    const jti = randomToken(18);
    const csrf = randomToken(24);
    const now = Date.now();
    const expiresAt = new Date(now + this.ttlMs);
    await this.Session.create({ _id: jti, userId, createdAt: new Date(now), expiresAt });
    const token = jwt.sign({ csrf }, this.secret, { algorithm: 'HS256', jwtid: jti, subject: userId, expiresIn: Math.floor(this.ttlMs / 1000) });
    return { token, csrf, jti, expiresAt };
  }

  /** Checks the token's signature and expiry (no I/O). Null when it is not ours or expired. */
  verifyToken(token: string): SessionClaims | null {
    try {
      const claims = jwt.verify(token, this.secret, { algorithms: ['HS256'] });
      if (typeof claims !== 'object' || typeof claims.jti !== 'string' || typeof claims.sub !== 'string' || typeof claims.csrf !== 'string') return null;
      return { jti: claims.jti, sub: claims.sub, csrf: claims.csrf };
    } catch {
      return null;
    }
  }

  /** The live session record (not logged out, not expired). */
  async find(jti: string, now = new Date()): Promise<SessionRecord | null> {
    // Straight from the driver: every dashboard request does this.
    const session = (await this.Session.collection.findOne({ _id: jti } as never)) as unknown as SessionRecord | null;
    return session && session.expiresAt > now ? session : null;
  }

  async revoke(jti: string): Promise<void> {
    await this.Session.deleteOne({ _id: jti });
  }

  /** Ends every session of a user (after a password change, or when the user is deleted). */
  async revokeAllOf(userId: string, exceptJti?: string): Promise<void> {
    await this.Session.deleteMany(exceptJti ? { userId, _id: { $ne: exceptJti } } : { userId });
  }

  async purgeExpired(now = new Date()): Promise<number> {
    return (await this.Session.deleteMany({ expiresAt: { $lt: now } })).deletedCount;
  }
}
