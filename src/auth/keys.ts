/**
 * Personal API keys. The value is returned once, at creation; only its SHA-256 is stored.
 * Every request looks its key up (one indexed read), so a deleted key fails on the very
 * next request on every instance. The only code that touches the ApiKey model.
 */
import type { ApiKeyModel, ApiKeyRecord } from '../store/models/api-key';
import type { Logger } from '../logger';
import { ValidationError } from '../errors';
import { apiKeyIdFor, generateApiKey, hashApiKey, safeEqual } from './crypto';

/** `lastUsedAt` is written at most this often per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;
export const MAX_KEYS_PER_USER = 100;

export type ApiKeyLookup = Pick<ApiKeyRecord, '_id' | 'userId' | 'hash' | 'lastUsedAt' | 'projectId'>;

export class ApiKeyService {
  /** `touch` writes not yet answered. */
  private readonly touching = new Set<Promise<void>>();

  constructor(
    private readonly ApiKey: ApiKeyModel,
    private readonly log: Logger,
  ) {}

  /** Creates a key; `value` is shown to the caller once and never stored. */
  async create(userId: string, name: string, options: { projectId?: string } = {}): Promise<{ record: ApiKeyRecord; value: string }> {
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > 100) throw new ValidationError('name must be 1-100 characters.', 'name');
    if ((await this.ApiKey.countDocuments({ userId })) >= MAX_KEYS_PER_USER) {
      throw new ValidationError(`A user may have at most ${MAX_KEYS_PER_USER} API keys; delete unused ones first.`, 'name');
    }
    const value = generateApiKey();
    const hash = hashApiKey(value);
    const record: ApiKeyRecord = {
      _id: apiKeyIdFor(hash),
      userId,
      name: trimmed,
      hash,
      prefix: value.slice(0, 12),
      createdAt: new Date(),
      lastUsedAt: null,
      ...(options.projectId ? { projectId: options.projectId } : {}),
    };
    await this.ApiKey.create(record);
    return { record, value };
  }

  list(userId: string): Promise<ApiKeyRecord[]> {
    return this.ApiKey.find({ userId }, { hash: 0 }).sort({ createdAt: 1 }).lean<ApiKeyRecord[]>();
  }

  /** Deletes (revokes) one of the user's keys. False when it is not theirs or unknown. */
  /** Keys by id (any owner, no hashes): names for the usage-by-key table. */
  describe(ids: readonly string[]): Promise<ApiKeyRecord[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.ApiKey.find({ _id: { $in: [...ids] } }, { hash: 0 }).lean<ApiKeyRecord[]>();
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.ApiKey.deleteOne({ _id: id, userId })).deletedCount > 0;
  }

  async deleteAllOf(userId: string): Promise<void> {
    await this.ApiKey.deleteMany({ userId });
  }

  /** Finds the live key with this value (well-formed keys only; see API_KEY_PATTERN). */
  lookup(value: string): Promise<ApiKeyLookup | null> {
    return this.lookupByHash(hashApiKey(value));
  }

  /** Finds the live key whose value hashes to `hash` (authentication has the hash already). */
  async lookupByHash(hash: string): Promise<ApiKeyLookup | null> {
    // Straight from the driver, by the id derived from the hash (keys made before ids were
    // derived are found by the hash index): every request with a key does this.
    const found = ((await this.ApiKey.collection.findOne({ _id: apiKeyIdFor(hash) } as never)) ??
      (await this.ApiKey.collection.findOne({ hash }))) as ApiKeyLookup | null;
    // The index lookup is by hash; the comparison below is constant-time regardless.
    if (!found || !safeEqual(found.hash, hash)) return null;
    return found;
  }

  /** Records use, at most once a minute per key; never awaited, never throws. */
  touch(key: ApiKeyLookup, now = new Date()): void {
    if (key.lastUsedAt && now.getTime() - new Date(key.lastUsedAt).getTime() < LAST_USED_RESOLUTION_MS) return;
    const write = this.ApiKey.updateOne({ _id: key._id }, { $set: { lastUsedAt: now } }).then(
      () => undefined,
      (error: unknown) => this.log.warn({ err: (error as Error).message, keyId: key._id }, 'could not record API key use'),
    );
    this.touching.add(write);
    void write.finally(() => this.touching.delete(write));
  }

  /** Resolves once every use recorded so far is written (so a test waits on it, not on a sleep). */
  async touchesWritten(): Promise<void> {
    await Promise.all([...this.touching]);
  }
}
