/**
 * Narrowing helpers for the untyped JSON of an OpenAPI document. The document is data a
 * user uploaded, so every access is checked instead of trusting a declared type.
 */

export type JsonRecord = Record<string, unknown>;

/** The value as a plain object (not an array), or undefined. */
export function asRecord(value: unknown): JsonRecord | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRecord) : undefined;
}

/** The value as an array, or an empty array. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value as a non-empty trimmed string, or undefined. */
export function asString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The object's entries whose values are objects. */
export function recordEntries(value: unknown): [string, JsonRecord][] {
  const record = asRecord(value);
  if (!record) return [];
  const out: [string, JsonRecord][] = [];
  for (const [key, child] of Object.entries(record)) {
    const childRecord = asRecord(child);
    if (childRecord) out.push([key, childRecord]);
  }
  return out;
}
