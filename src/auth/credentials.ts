/**
 * Hosting-account connections: a user's token per git host, sealed with AES-256-GCM (bound
 * to `<userId>:<host>`), never returned and never logged. The only code that touches the
 * Credential model.
 */
import type { CredentialHost, CredentialModel, CredentialRecord } from '../store/models/credential';
import type { Logger } from '../logger';
import { decryptSecret, encryptSecret } from './crypto';

export { CREDENTIAL_HOSTS, type CredentialHost } from '../store/models/credential';

export interface CredentialSummary {
  host: CredentialHost;
  connected: true;
  last4: string;
  createdAt: Date;
  updatedAt: Date;
}

export class CredentialService {
  constructor(
    private readonly Credential: CredentialModel,
    private readonly secret: string,
    private readonly log: Logger,
  ) {}

  async list(userId: string): Promise<CredentialSummary[]> {
    const docs = await this.Credential.find({ userId }, { encryptedToken: 0 }).sort({ host: 1 }).lean<CredentialRecord[]>();
    return docs.map((d) => ({ host: d.host, connected: true, last4: d.last4, createdAt: d.createdAt, updatedAt: d.updatedAt }));
  }

  async set(userId: string, host: CredentialHost, token: string): Promise<CredentialSummary> {
    const _id = `${userId}:${host}`;
    const encryptedToken = encryptSecret(token, this.secret, _id);
    const last4 = token.length >= 12 ? token.slice(-4) : '';
    await this.Credential.updateOne({ _id }, { $set: { userId, host, encryptedToken, last4 } }, { upsert: true });
    const doc = await this.Credential.findById(_id, { encryptedToken: 0 }).lean<CredentialRecord>();
    return { host, connected: true, last4, createdAt: doc?.createdAt ?? new Date(), updatedAt: doc?.updatedAt ?? new Date() };
  }

  async delete(userId: string, host: CredentialHost): Promise<boolean> {
    return (await this.Credential.deleteOne({ _id: `${userId}:${host}` })).deletedCount > 0;
  }

  async deleteAllOf(userId: string): Promise<void> {
    await this.Credential.deleteMany({ userId });
  }

  /** The decrypted token for the git indexer; undefined when none (or it cannot be opened). */
  async tokenFor(userId: string, host: string): Promise<string | undefined> {
    const _id = `${userId}:${host}`;
    const doc = await this.Credential.findById(_id, { encryptedToken: 1 }).lean<Pick<CredentialRecord, 'encryptedToken'>>();
    if (!doc) return undefined;
    try {
      return decryptSecret(doc.encryptedToken, this.secret, _id);
    } catch {
      this.log.warn({ userId, host }, 'a stored hosting token could not be decrypted (was SHELFMARK_SECRET changed?); ignoring it');
      return undefined;
    }
  }
}
