/**
 * Cheap checks that run before and right after decoding an upload, so hostile input (deep
 * nesting, alias bombs, cyclic aliases, huge keys) is refused before anything recursive or
 * expensive touches it. Every walk here is iterative.
 */
import { OpenApiError } from './errors';

/** Limits for {@link measureTree}. */
export interface TreeLimits {
  /** Deepest allowed nesting of objects and arrays (the root is level 1). */
  maxDepth: number;
  /** Longest allowed object key, in characters. */
  maxKeyLength: number;
  /** Largest allowed size of the tree written out as JSON, with every YAML alias expanded. */
  maxExpandedBytes: number;
}

/** What {@link measureTree} learned about a tree it accepted. */
export interface TreeMeasure {
  /** Approximate size in bytes of the tree written out as compact JSON, aliases expanded. */
  expandedBytes: number;
  /** Every `$ref` that does not start with `#` (a file or URL), in order of discovery. */
  externalRefs: string[];
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes strict UTF-8 and drops a leading byte-order mark; throws `not_utf8` otherwise. */
export function decodeUtf8(buf: Uint8Array): string {
  let text: string;
  try {
    text = UTF8.decode(buf);
  } catch {
    throw new OpenApiError('not_utf8', 'The file is not valid UTF-8 text. Save it as UTF-8 (JSON or YAML) and upload it again.');
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** JSON when the first non-blank character opens an object, YAML otherwise. */
export function detectFormat(text: string): 'json' | 'yaml' {
  const first = /\S/.exec(text);
  return first?.[0] === '{' ? 'json' : 'yaml';
}

/**
 * The deepest bracket nesting in a JSON text, scanning without recursion and ignoring
 * brackets inside strings. Stops counting once `limit` is exceeded (returns `limit + 1`).
 */
export function jsonNestingDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return max;
}

interface Frame {
  node: object;
  keys: string[] | null;
  index: number;
  bytes: number;
  height: number;
}

/**
 * Walks a decoded tree once, memoizing shared nodes (YAML aliases) so an alias bomb costs
 * time proportional to its source, not to its expansion. Refuses nesting deeper than the
 * limit (also when built from aliases), cyclic aliases, huge keys, and trees whose expanded
 * size would explode. Collects external `$ref`s on the way.
 */
export function measureTree(root: unknown, limits: TreeLimits): TreeMeasure {
  const external = new Set<string>();
  if (root === null || typeof root !== 'object') return { expandedBytes: scalarBytes(root), externalRefs: [] };
  const memo = new Map<object, { bytes: number; height: number }>();
  const onPath = new Set<object>();
  const stack: Frame[] = [];
  const tooDeep = () => tooDeepError(limits.maxDepth);
  const enter = (node: object) => {
    if (stack.length >= limits.maxDepth) throw tooDeep();
    onPath.add(node);
    stack.push({ node, keys: Array.isArray(node) ? null : Object.keys(node), index: 0, bytes: 2, height: 0 });
  };
  let result = { bytes: 0, height: 0 };
  enter(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const values = frame.node as Record<string, unknown>;
    const count = frame.keys ? frame.keys.length : (frame.node as unknown[]).length;
    if (frame.index >= count) {
      stack.pop();
      onPath.delete(frame.node);
      const done = { bytes: frame.bytes, height: frame.height + 1 };
      if (done.bytes > limits.maxExpandedBytes) throw bomb(done.bytes, limits.maxExpandedBytes);
      memo.set(frame.node, done);
      const parent = stack[stack.length - 1];
      if (parent) addChild(parent, done);
      else result = done;
      continue;
    }
    const i = frame.index++;
    let child: unknown;
    if (frame.keys) {
      const key = frame.keys[i];
      if (key.length > limits.maxKeyLength) {
        throw new OpenApiError(
          'invalid',
          `The document has a key of ${key.length} characters (starting "${key.slice(0, 40)}…"); keys may be at most ${limits.maxKeyLength} characters.`,
        );
      }
      child = values[key];
      frame.bytes += key.length + 4;
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) external.add(child);
    } else {
      child = (frame.node as unknown[])[i];
      frame.bytes += 1;
    }
    if (child === null || typeof child !== 'object') {
      frame.bytes += scalarBytes(child);
      continue;
    }
    const known = memo.get(child);
    if (known) {
      if (stack.length + known.height > limits.maxDepth) throw tooDeep();
      addChild(frame, known);
    } else if (onPath.has(child)) {
      throw new OpenApiError(
        'invalid',
        'The YAML has an alias that contains itself (a recursive anchor), which JSON and OpenAPI cannot represent. Replace the alias with a copy or a $ref.',
      );
    } else {
      enter(child);
    }
  }
  return { expandedBytes: result.bytes, externalRefs: [...external] };
}

/** The `too_deep` refusal, shared by the JSON pre-scan, the YAML loader and the tree walk. */
export function tooDeepError(maxDepth: number): OpenApiError {
  return new OpenApiError(
    'too_deep',
    `The document nests objects or arrays more than ${maxDepth} levels deep. Flatten it (OpenAPI documents rarely need more than 30 levels) and upload it again.`,
  );
}

function addChild(frame: Frame, child: { bytes: number; height: number }): void {
  frame.bytes += child.bytes;
  if (child.height > frame.height) frame.height = child.height;
}

function scalarBytes(value: unknown): number {
  return typeof value === 'string' ? value.length + 2 : 6;
}

function bomb(bytes: number, limit: number): OpenApiError {
  const mb = (n: number) => (n >= 1e15 ? n.toExponential(1) : (n / 1024 / 1024).toFixed(0));
  return new OpenApiError(
    'bomb',
    `The document expands to about ${mb(bytes)} MB once its YAML aliases (*name) are expanded, over the ${mb(limit)} MB limit — an alias bomb ("billion laughs") or heavy reuse of anchors. Replace the aliases with $ref references and upload it again.`,
  );
}
