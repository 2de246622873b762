/**
 * Reading JSON Schemas (as OpenAPI uses them) without dereferencing the document: one schema
 * is flattened at a time — its `$ref` chain followed, `allOf` merged, the first `oneOf` /
 * `anyOf` branch taken — which is what an example or a field list needs.
 */
import { asArray, asRecord, asString, type JsonRecord } from './json';
import { followRefs } from './refs';

const MAX_COMPOSITION_DEPTH = 8;
/** allOf members merged at most; more would make flattening quadratic on hostile input. */
const MAX_ALL_OF = 64;
/** Schemas visited by one flattening at most. */
const MAX_FLATTEN_STEPS = 64;

/** A schema flattened for reading. */
export interface FlatSchema {
  /** The flattened schema; undefined when unresolvable or circular. */
  schema: JsonRecord | undefined;
  /** The name of the component it came from, when reached through a `$ref`. */
  name?: string;
  circular: boolean;
  /** The refs being expanded on this path; pass it down when reading nested schemas. */
  seen: Set<string>;
}

/** A count of schema visits still allowed; shared by callers that flatten many schemas. */
export interface WorkBudget {
  left: number;
}

/**
 * Follows `$ref`s, merges `allOf` and picks the first non-null `oneOf`/`anyOf` branch.
 * Nested compositions are flattened too, within a budget of schema visits (by default a
 * fresh one per call), so nested `allOf` fan-outs cannot grow exponentially; once the budget
 * is spent, compositions are no longer expanded.
 */
export function flattenSchema(
  root: unknown,
  schema: unknown,
  seen: ReadonlySet<string> = new Set(),
  work: WorkBudget = { left: MAX_FLATTEN_STEPS },
): FlatSchema {
  return flattenWithin(root, schema, seen, 0, work);
}

function flattenWithin(root: unknown, schema: unknown, seen: ReadonlySet<string>, level: number, work: WorkBudget): FlatSchema {
  work.left -= 1;
  const compose = level < MAX_COMPOSITION_DEPTH && work.left > 0;
  const pathSeen = new Set(seen);
  const resolved = followRefs(root, typeof schema === 'boolean' ? {} : schema, pathSeen);
  if (!resolved.value) return { schema: undefined, name: resolved.name, circular: resolved.circular, seen: pathSeen };
  let flat = resolved.value;
  if (compose && Array.isArray(flat.allOf)) {
    let merged = without(flat, ['allOf']);
    for (const part of flat.allOf.slice(0, MAX_ALL_OF)) {
      const inner = flattenWithin(root, part, pathSeen, level + 1, work);
      if (inner.schema) merged = mergeSchemas(merged, inner.schema);
    }
    flat = merged;
  }
  const branches = asArray(flat.oneOf ?? flat.anyOf);
  if (compose && branches.length > 0) {
    const pick = branches.find((b) => followRefs(root, b, new Set(pathSeen)).value?.type !== 'null') ?? branches[0];
    const inner = flattenWithin(root, pick, pathSeen, level + 1, work);
    flat = without(flat, ['oneOf', 'anyOf']);
    if (inner.schema) flat = mergeSchemas(flat, inner.schema);
  }
  return { schema: flat, name: resolved.name, circular: false, seen: pathSeen };
}

/** Merges two schemas: properties and required lists are united, otherwise the first wins. */
export function mergeSchemas(first: JsonRecord, second: JsonRecord): JsonRecord {
  const merged: JsonRecord = { ...second, ...first };
  const a = asRecord(first.properties);
  const b = asRecord(second.properties);
  if (a || b) {
    // Keep the first schema's property order, then the second's new properties.
    const properties: JsonRecord = { ...a };
    for (const [name, value] of Object.entries(b ?? {})) if (!Object.hasOwn(properties, name)) properties[name] = value;
    merged.properties = properties;
  }
  const required = [...asArray(first.required), ...asArray(second.required)];
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

function without(record: JsonRecord, keys: string[]): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(record)) if (!keys.includes(key)) out[key] = value;
  return out;
}

/** The first non-null type of a schema (`type: ["string", "null"]` → string), inferred when absent. */
export function primaryType(schema: JsonRecord): string | undefined {
  const declared = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (typeof declared === 'string') return declared;
  if (schema.properties || schema.additionalProperties) return 'object';
  if (schema.items || schema.prefixItems) return 'array';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return typeof schema.enum[0];
  return undefined;
}

/** A short type label: `string`, `integer<int64>`, `array of Pet`, `"a" | "b"`. */
export function typeLabel(root: unknown, schema: unknown, seen: ReadonlySet<string> = new Set()): string {
  const flat = flattenSchema(root, schema, seen);
  if (!flat.schema) return flat.name ?? 'any';
  const s = flat.schema;
  const enumValues = asArray(s.enum);
  if (enumValues.length > 0 && enumValues.length <= 6) return enumValues.map((v) => JSON.stringify(v)).join(' | ');
  const type = primaryType(s);
  if (type === 'array') {
    const items = flattenSchema(root, s.items, flat.seen);
    return `array of ${items.name ?? (items.schema ? (primaryType(items.schema) ?? 'any') : 'any')}`;
  }
  if (type === 'object' && flat.name) return flat.name;
  const format = asString(s.format);
  return `${type ?? flat.name ?? 'any'}${format ? `<${format}>` : ''}`;
}

/** A top-level field of an object schema. */
export interface SchemaField {
  name: string;
  type: string;
  required: boolean;
  description?: string;
}

/** The top-level fields of an object schema: required first, deprecated last, at most `limit`. */
export function schemaFields(root: unknown, schema: unknown, limit = 40): { fields: SchemaField[]; total: number } {
  const flat = flattenSchema(root, schema);
  const properties = asRecord(flat.schema?.properties);
  if (!flat.schema || !properties) return { fields: [], total: 0 };
  const names = Object.keys(properties);
  const required = asArray(flat.schema.required).filter((r): r is string => typeof r === 'string' && Object.hasOwn(properties, r));
  const isDeprecated = (name: string) => followRefs(root, properties[name], new Set(flat.seen)).value?.deprecated === true;
  // Required fields first, deprecated ones last: the order a reader should meet them in.
  // The scan stops once `limit` fields are known, so a schema with 20,000 properties is cheap.
  const ordered = [...new Set(required)];
  const deprecated: string[] = [];
  for (const name of names) {
    if (ordered.length >= limit) break;
    if (required.includes(name)) continue;
    if (isDeprecated(name)) deprecated.push(name);
    else ordered.push(name);
  }
  ordered.push(...deprecated);
  const fields = ordered.slice(0, limit).map((name) => {
    const property = properties[name];
    const description = asString(asRecord(property)?.description) ?? asString(flattenSchema(root, property, flat.seen).schema?.description);
    return { name, type: typeLabel(root, property, flat.seen), required: required.includes(name), ...(description ? { description } : {}) };
  });
  return { fields, total: names.length };
}
