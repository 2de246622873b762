/** Request validation with zod: the first problem becomes a 400 validation_error naming its field. */
import type { z } from 'zod';
import { ValidationError } from '../../../errors';

export function parseInput<S extends z.ZodTypeAny>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const field = [path, issue.keys[0]].filter(Boolean).join('.');
    throw new ValidationError(`Unknown field "${field}".`, field);
  }
  const field = path || undefined;
  if (issue.message === 'Required') throw new ValidationError(field ? `${field} is required.` : 'A JSON body is required.', field);
  const message = (issue.message.charAt(0).toLowerCase() + issue.message.slice(1)).replace(/\.$/, '');
  throw new ValidationError(field ? `${field}: ${message}.` : `Invalid request: ${message}.`, field);
}

/** An integer query parameter within bounds, or the default when absent. */
export function intParam(raw: unknown, name: string, min: number, max: number, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new ValidationError(`${name} must be a whole number from ${min} to ${max}.`, name);
  const n = Number(raw);
  if (n < min || n > max) throw new ValidationError(`${name} must be a whole number from ${min} to ${max}.`, name);
  return n;
}

/** A single string query parameter. */
export function stringParam(raw: unknown, name: string): string | undefined {
  if (Array.isArray(raw)) throw new ValidationError(`${name} must be given once.`, name);
  return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;
}
