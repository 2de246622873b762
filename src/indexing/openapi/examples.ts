/**
 * Compact example values generated from JSON Schemas, for request bodies and responses in
 * snippets. Values the author wrote (`example`, `examples`, `default`, `const`, `enum`) win
 * over generated ones; nesting and total size are bounded so a snippet stays small however
 * large or recursive the schema.
 */
import { asArray, asRecord, asString, type JsonRecord } from './json';
import { flattenSchema, primaryType, type WorkBudget } from './schema';

/** How {@link exampleFromSchema} shapes its output. */
export interface ExampleOptions {
  /**
   * `request`: required properties only (or the first three when none is required), no
   * readOnly ones. `response`: every property, no writeOnly ones. Default `response`.
   */
  mode?: 'request' | 'response';
  /** Deepest nesting of objects and arrays (default 4); deeper ones are written empty. */
  maxDepth?: number;
  /** Approximate budget of the example written as compact JSON (default 2,048 bytes). */
  maxBytes?: number;
}

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '12:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  'uri-reference': '/path',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  byte: 'U3dhZ2dlcg==',
  binary: '<binary>',
  password: '********',
};

interface Context {
  root: unknown;
  mode: 'request' | 'response';
  maxDepth: number;
  budget: number;
  /** Schema visits left: bounds the time an example costs, whatever the schema's shape. */
  work: WorkBudget;
}

/** Schema visits one example may make; real APIs need far fewer (OpenAI's largest: under 100). */
const MAX_WORK = 600;

/** An example value for `schema` (resolved against `root`), or undefined when none can be made. */
export function exampleFromSchema(root: unknown, schema: unknown, opts: ExampleOptions = {}): unknown {
  const ctx: Context = { root, mode: opts.mode ?? 'response', maxDepth: opts.maxDepth ?? 4, budget: opts.maxBytes ?? 2048, work: { left: MAX_WORK } };
  return generate(ctx, schema, 0, new Set());
}

function generate(ctx: Context, schema: unknown, depth: number, seen: ReadonlySet<string>): unknown {
  if (ctx.work.left <= 0) return undefined;
  const flat = flattenSchema(ctx.root, schema, seen, ctx.work);
  const s = flat.schema;
  if (!s) return undefined;
  const authored = authoredExample(s, ctx.budget);
  if (authored !== undefined) {
    ctx.budget -= jsonSize(authored);
    return authored;
  }
  const type = primaryType(s);
  if (type === 'object') return generateObject(ctx, s, depth, flat.seen);
  if (type === 'array') {
    if (depth >= ctx.maxDepth) return [];
    ctx.budget -= 2;
    const items = s.items ?? asArray(s.prefixItems)[0];
    const item = generate(ctx, items, depth + 1, flat.seen);
    return item === undefined ? [] : [item];
  }
  const value = scalarExample(type, s);
  ctx.budget -= jsonSize(value);
  return value;
}

function generateObject(ctx: Context, s: JsonRecord, depth: number, seen: ReadonlySet<string>): JsonRecord {
  const out: JsonRecord = {};
  if (depth >= ctx.maxDepth) return out;
  ctx.budget -= 2;
  const properties = asRecord(s.properties) ?? {};
  const required = asArray(s.required).filter((r): r is string => typeof r === 'string' && Object.hasOwn(properties, r));
  const optional = Object.keys(properties).filter((name) => !required.includes(name));
  let names = [...required, ...optional];
  if (ctx.mode === 'request') names = required.length > 0 ? required : optional.slice(0, 3);
  for (const name of names) {
    if (ctx.budget <= 0 || ctx.work.left <= 0) break;
    const property = asRecord(properties[name]);
    if (ctx.mode === 'request' && property?.readOnly === true) continue;
    if (ctx.mode === 'response' && property?.writeOnly === true) continue;
    ctx.budget -= name.length + 4;
    const value = generate(ctx, properties[name], depth + 1, seen);
    if (value !== undefined) out[name] = value;
  }
  const additional = asRecord(s.additionalProperties);
  if (names.length === 0 && additional && ctx.budget > 0) {
    const value = generate(ctx, additional, depth + 1, seen);
    if (value !== undefined) out.key = value;
  }
  return out;
}

/** The author's own example value, if it fits in the budget. */
function authoredExample(s: JsonRecord, budget: number): unknown {
  const candidates: unknown[] = [s.example, asArray(s.examples)[0], s.default, s.const, asArray(s.enum)[0]];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    if (candidate === null && s.const !== null && asArray(s.enum)[0] !== null) continue;
    if (jsonSize(candidate) <= Math.max(budget, 80)) return candidate;
  }
  return undefined;
}

function scalarExample(type: string | undefined, s: JsonRecord): unknown {
  const minimum = typeof s.minimum === 'number' ? s.minimum : undefined;
  switch (type) {
    case 'integer':
      return minimum !== undefined ? Math.ceil(minimum) : 0;
    case 'number':
      return minimum ?? 0;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string': {
      const format = asString(s.format);
      return (format && FORMAT_EXAMPLES[format]) ?? 'string';
    }
    default:
      return {};
  }
}

function jsonSize(value: unknown): number {
  return JSON.stringify(value)?.length ?? 4;
}
