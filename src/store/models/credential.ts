import { Schema, type Connection, type Model } from 'mongoose';

export const CREDENTIAL_HOSTS = ['github', 'gitlab', 'bitbucket', 'git'] as const;
export type CredentialHost = (typeof CREDENTIAL_HOSTS)[number];

/**
 * A user's hosting-account token (`_id` = `<userId>:<host>`). The token is stored only
 * encrypted (AES-256-GCM, see auth/crypto); `last4` is shown to recognise it.
 */
export interface CredentialRecord {
  _id: string;
  userId: string;
  host: CredentialHost;
  encryptedToken: string;
  last4: string;
  createdAt: Date;
  updatedAt: Date;
}

const credentialSchema = new Schema<CredentialRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    host: { type: String, required: true },
    encryptedToken: { type: String, required: true },
    last4: { type: String, default: '' },
  },
  { collection: 'credentials', timestamps: true, versionKey: false },
);
credentialSchema.index({ userId: 1 });

export type CredentialModel = Model<CredentialRecord>;

export function credentialModel(conn: Connection): CredentialModel {
  return (conn.models.Credential as CredentialModel | undefined) ?? conn.model<CredentialRecord>('Credential', credentialSchema);
}
