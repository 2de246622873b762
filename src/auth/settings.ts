/** The singleton permission settings: which operations anonymous callers may perform. */
import { ANONYMOUS_OPERATIONS, type AnonymousOperation, type SettingsModel, type SettingsRecord } from '../store/models/settings';

export { ANONYMOUS_OPERATIONS, type AnonymousOperation };

export type AnonymousPermissions = Record<AnonymousOperation, boolean>;

const ALL_OFF = Object.fromEntries(ANONYMOUS_OPERATIONS.map((op) => [op, false])) as AnonymousPermissions;

export class SettingsService {
  constructor(private readonly Settings: SettingsModel) {}

  /** Creates the settings document (everything off) unless it exists. */
  async ensure(): Promise<void> {
    await this.Settings.updateOne({ _id: 'global' }, { $setOnInsert: { anonymous: ALL_OFF, updatedAt: new Date() } }, { upsert: true }).catch(
      (error: unknown) => {
        if (!/E11000/.test((error as Error).message)) throw error;
      },
    );
  }

  async anonymousPermissions(): Promise<AnonymousPermissions> {
    const doc = await this.Settings.findById('global').lean<SettingsRecord>();
    return { ...ALL_OFF, ...pickKnown(doc?.anonymous) };
  }

  async allowsAnonymous(operation: AnonymousOperation): Promise<boolean> {
    return (await this.anonymousPermissions())[operation] === true;
  }

  async updateAnonymousPermissions(change: Partial<AnonymousPermissions>): Promise<AnonymousPermissions> {
    const $set: Record<string, unknown> = { updatedAt: new Date() };
    for (const op of ANONYMOUS_OPERATIONS) if (typeof change[op] === 'boolean') $set[`anonymous.${op}`] = change[op];
    await this.Settings.updateOne({ _id: 'global' }, { $set }, { upsert: true });
    return this.anonymousPermissions();
  }
}

function pickKnown(value: Partial<AnonymousPermissions> | undefined): Partial<AnonymousPermissions> {
  const out: Partial<AnonymousPermissions> = {};
  for (const op of ANONYMOUS_OPERATIONS) if (typeof value?.[op] === 'boolean') out[op] = value[op];
  return out;
}
