/**
 * Internal `$ref` resolution, done lazily where a value is needed. The document is never
 * dereferenced as a whole: shared schemas of a large API (OpenAI's has 1,400) would be
 * copied into every use and cycles would never end.
 */
import { asRecord, type JsonRecord } from './json';

/** The most `$ref` → `$ref` hops followed before a chain is treated as broken. */
const MAX_HOPS = 32;

/** Whether a `$ref` points into the same document. */
export function isInternalRef(ref: string): boolean {
  return ref.startsWith('#');
}

/**
 * The value a local JSON pointer (`#/components/schemas/Pet`) designates, or undefined.
 * Unescapes `~1` → `/` and `~0` → `~` and percent-encoding; only own properties are followed.
 */
export function resolveRef(root: unknown, ref: string): unknown {
  if (!isInternalRef(ref)) return undefined;
  if (ref === '#' || ref === '#/') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node = root;
  for (const raw of ref.slice(2).split('/')) {
    const token = unescapeToken(raw);
    if (Array.isArray(node)) {
      node = /^\d+$/.test(token) ? node[Number(token)] : undefined;
    } else {
      const record = asRecord(node);
      node = record && Object.hasOwn(record, token) ? record[token] : undefined;
    }
    if (node === undefined) return undefined;
  }
  return node;
}

/** The last segment of a pointer, unescaped (`#/components/schemas/Pet` → `Pet`). */
export function refName(ref: string): string {
  const slash = ref.lastIndexOf('/');
  return unescapeToken(slash >= 0 ? ref.slice(slash + 1) : ref.replace(/^#/, ''));
}

function unescapeToken(raw: string): string {
  let token = raw;
  if (token.includes('%')) {
    try {
      token = decodeURIComponent(token);
    } catch {
      // Not percent-encoding after all; keep the raw text.
    }
  }
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A value with its `$ref` chain followed. */
export interface ResolvedValue {
  /** The target object (siblings of `$ref` laid over it), or undefined when unresolvable. */
  value: JsonRecord | undefined;
  /** Name of the last schema or component referenced, when a `$ref` was followed. */
  name?: string;
  /** True when the chain reached a `$ref` already in `seen` (a cycle). */
  circular: boolean;
}

/**
 * Follows a `$ref` chain from `value`. `seen` holds the refs already being expanded on the
 * current path; a ref found in it stops the chain as circular. Refs followed are added to
 * `seen` — callers pass a copy per path.
 */
export function followRefs(root: unknown, value: unknown, seen: Set<string> = new Set()): ResolvedValue {
  let current = asRecord(value);
  let name: string | undefined;
  let siblings: JsonRecord | undefined;
  for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (seen.has(ref) || hops >= MAX_HOPS) return { value: undefined, name: refName(ref), circular: true };
    seen.add(ref);
    const { $ref: _ignored, ...rest } = current;
    if (Object.keys(rest).length > 0) siblings = { ...rest, ...siblings };
    name = refName(ref);
    current = asRecord(resolveRef(root, ref));
  }
  if (current && siblings) current = { ...current, ...siblings };
  return { value: current, name, circular: false };
}

/**
 * A copy of `schema` with internal `$ref`s replaced by their targets down to `depthLimit`
 * levels. A ref met again on the same path becomes `{ $circular: "<Name>" }`; below the depth
 * limit values are returned unresolved. Meant for one schema at a time, never the document.
 */
export function derefSchema(root: unknown, schema: unknown, depthLimit: number): unknown {
  return derefAt(root, schema, depthLimit, new Set());
}

function derefAt(root: unknown, node: unknown, depth: number, seen: Set<string>): unknown {
  if (node === null || typeof node !== 'object' || depth <= 0) return node;
  if (Array.isArray(node)) return node.map((item) => derefAt(root, item, depth - 1, seen));
  const record = node as JsonRecord;
  if (typeof record.$ref === 'string' && isInternalRef(record.$ref)) {
    const pathSeen = new Set(seen);
    const resolved = followRefs(root, record, pathSeen);
    if (resolved.circular) return { $circular: resolved.name ?? record.$ref };
    if (!resolved.value) return { $unresolved: record.$ref };
    return derefPlain(root, resolved.value, depth, pathSeen);
  }
  return derefPlain(root, record, depth, seen);
}

function derefPlain(root: unknown, record: JsonRecord, depth: number, seen: Set<string>): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(record)) out[key] = derefAt(root, value, depth - 1, seen);
  return out;
}

/**
 * How many nodes the document would have if every internal `$ref` were replaced by a copy of
 * its target (cycles counted once), counting at most to `limit + 1`. Iterative and memoized:
 * linear in the document's size even when the expansion is exponential.
 */
export function countExpandedNodes(root: unknown, limit: number): number {
  const memo = new Map<object, number>();
  const onPath = new Set<object>();
  type Frame = { node: object; children: unknown[]; index: number; total: number };
  const childrenOf = (node: object): unknown[] => {
    const record = node as JsonRecord;
    if (!Array.isArray(node) && typeof record.$ref === 'string') {
      const target = resolveRef(root, record.$ref);
      return target === undefined ? [] : [target];
    }
    return Object.values(node);
  };
  if (root === null || typeof root !== 'object') return 1;
  const stack: Frame[] = [{ node: root, children: childrenOf(root), index: 0, total: 1 }];
  onPath.add(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.index >= frame.children.length) {
      stack.pop();
      onPath.delete(frame.node);
      const total = Math.min(frame.total, limit + 1);
      memo.set(frame.node, total);
      const parent = stack[stack.length - 1];
      if (!parent) return total;
      parent.total += total;
      if (parent.total > limit) return limit + 1;
      continue;
    }
    const child = frame.children[frame.index++];
    if (child === null || typeof child !== 'object' || onPath.has(child)) {
      frame.total += 1;
    } else {
      const known = memo.get(child);
      if (known !== undefined) frame.total += known;
      else {
        onPath.add(child);
        stack.push({ node: child, children: childrenOf(child), index: 0, total: 1 });
      }
    }
    if (frame.total > limit) return limit + 1;
  }
  return 1;
}
