import { createHash } from 'node:crypto';

/** Hex SHA-256 of a string or buffer. */
export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
