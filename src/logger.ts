/**
 * Structured JSON logs (pino). Secrets are redacted by path wherever they may appear, and
 * git URLs with credentials are scrubbed by `scrubSecrets` before they reach a message.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

const REDACT = [
  'gitToken',
  '*.gitToken',
  'token',
  '*.token',
  'password',
  '*.password',
  'apiKey',
  '*.apiKey',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["shelfmark_api_key"]',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    { level, base: { service: 'shelfmark' }, redact: { paths: REDACT, censor: '[redacted]' }, timestamp: pino.stdTimeFunctions.isoTime },
    destination ?? process.stdout,
  );
}

/** Removes credentials from URLs and bearer-like tokens from free text. */
export function scrubSecrets(text: string): string {
  return text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*(:[^/\s@]*)?@/gi, '$1***@')
    .replace(/\b(smk_[A-Za-z0-9_-]{6})[A-Za-z0-9_-]+/g, '$1***')
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/-]+=*/gi, '$1***');
}
