/**
 * A repository's `shelfmark.json` or `context7.json` (same fields): which folders hold the
 * docs, what to exclude, and which tagged versions to index. Parsing is pure; the caller
 * reads the file and turns a `RepoConfigError` into a 400 or a failed job.
 */
import { z } from 'zod';
import { NON_DOC_KINDS, type NonDocKind } from './defaults';

/** The config files a repository may carry at its root, in order of precedence. */
export const REPO_CONFIG_FILES = ['shelfmark.json', 'context7.json'] as const;
export type RepoConfigFileName = (typeof REPO_CONFIG_FILES)[number];

/** A repository config, validated and normalised (plain-string versions become `{ tag }`). */
export interface RepoConfig {
  projectTitle?: string;
  description?: string;
  folders?: string[];
  excludeFolders?: string[];
  excludeFiles?: string[];
  rules?: string[];
  previousVersions?: { tag: string; title?: string }[];
  branch?: string;
  /**
   * Default exclusions switched off (`false`) per kind: navigation files, maintainers' notes,
   * output listings, sample data, release notes/changelogs, redirect stubs. `false` for the
   * whole field keeps them all.
   */
  defaultExclusions?: Partial<Record<NonDocKind, boolean>>;
  /** Near-duplicate pages across folders: `false` keeps every copy; `threshold` (0.5–1) the similarity that makes a copy. */
  duplicatePages?: { enabled: boolean; threshold?: number };
}

/**
 * The config file is not JSON, or a field has the wrong type; `field` names it (e.g.
 * `folders[2]`). The message leaves out the file name (`fileName`), which callers put first:
 * "context7.json is invalid: field "folders" must be an array, not string".
 */
export class RepoConfigError extends Error {
  readonly fileName: string;
  readonly field?: string;
  constructor(fileName: string, message: string, field?: string) {
    super(message);
    this.name = 'RepoConfigError';
    this.fileName = fileName;
    this.field = field;
  }
}

/** Fields of Context7's schema that we accept and ignore (claiming metadata, editor hints). */
const TOLERATED = new Set(['$schema', 'url', 'public_key']);

/**
 * Git refuses these in ref names (git check-ref-format); refusing them here also keeps a
 * tag from reaching git as an option (`-…`) or escaping the refs namespace (`..`).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: git refuses control characters in ref names (git check-ref-format), so this excludes them
const REF_NAME = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)[^\s~^:?*[\\\x00-\x1f\x7f]+(?<![./])$/;
const refName = (what: string) => z.string().min(1).max(200).regex(REF_NAME, `must be a valid git ${what} name`);

const stringList = (maxItems: number, maxLength: number) => z.array(z.string().max(maxLength)).max(maxItems).nullish();

const schema = z.object({
  projectTitle: z.string().max(200).nullish(),
  description: z.string().max(2000).nullish(),
  folders: stringList(500, 500),
  excludeFolders: stringList(500, 500),
  excludeFiles: stringList(500, 500),
  rules: stringList(200, 2000),
  previousVersions: z
    .array(z.union([refName('tag'), z.object({ tag: refName('tag'), title: z.string().max(200).nullish() })]))
    .max(100)
    .nullish(),
  branch: refName('branch').nullish(),
  defaultExclusions: z
    .union([
      z.literal(false),
      z.object(Object.fromEntries(NON_DOC_KINDS.map((k) => [k, z.boolean().optional()])) as Record<NonDocKind, z.ZodOptional<z.ZodBoolean>>).strict(),
    ])
    .nullish(),
  duplicatePages: z.union([z.boolean(), z.object({ threshold: z.number().min(0.5).max(1) }).strict()]).nullish(),
});

const KNOWN = new Set([...Object.keys(schema.shape), ...TOLERATED]);

/**
 * Parses and validates the text of a config file.
 * @throws RepoConfigError when the text is not a JSON object or a field has the wrong type.
 * @returns the normalised config and warnings (unknown fields, unusable entries) for the job log.
 */
export function parseRepoConfig(text: string, fileName: string): { config: RepoConfig; warnings: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new RepoConfigError(fileName, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new RepoConfigError(fileName, 'must contain a JSON object');
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = fieldName(issue.path);
    throw new RepoConfigError(fileName, `field "${field}" ${describeIssue(issue)}`, field);
  }
  const warnings = Object.keys(raw)
    .filter((k) => !KNOWN.has(k))
    .map((k) => `unknown field "${k}" ignored`);
  const c = parsed.data;
  const config: RepoConfig = {};
  if (c.projectTitle?.trim()) config.projectTitle = c.projectTitle.trim();
  if (c.description?.trim()) config.description = c.description.trim();
  for (const key of ['folders', 'excludeFolders', 'excludeFiles'] as const) {
    const list = c[key];
    if (list) config[key] = usablePaths(list, key, warnings);
  }
  if (c.rules) config.rules = c.rules.map((r) => r.trim()).filter((r) => r !== '');
  if (c.previousVersions) config.previousVersions = uniqueVersions(c.previousVersions, warnings);
  if (c.branch) config.branch = c.branch;
  if (c.defaultExclusions === false) config.defaultExclusions = Object.fromEntries(NON_DOC_KINDS.map((k) => [k, false]));
  else if (c.defaultExclusions) config.defaultExclusions = { ...c.defaultExclusions };
  if (typeof c.duplicatePages === 'boolean') config.duplicatePages = { enabled: c.duplicatePages };
  else if (c.duplicatePages) config.duplicatePages = { enabled: true, threshold: c.duplicatePages.threshold };
  return { config, warnings };
}

/**
 * Picks the config file among those present (`shelfmark.json` wins over `context7.json`) and
 * parses it; undefined when the repository has neither.
 * @throws RepoConfigError as `parseRepoConfig` does, for the chosen file only.
 */
export function parseRepoConfigFiles(
  texts: Partial<Record<RepoConfigFileName, string>>,
): { config: RepoConfig; warnings: string[]; fileName: RepoConfigFileName } | undefined {
  const present = REPO_CONFIG_FILES.filter((name) => texts[name] !== undefined);
  const fileName = present[0];
  const text = fileName === undefined ? undefined : texts[fileName];
  if (fileName === undefined || text === undefined) return undefined;
  const { config, warnings } = parseRepoConfig(text, fileName);
  if (present.length > 1) warnings.unshift(`${present.slice(1).join(', ')} ignored: ${fileName} takes precedence`);
  return { config, warnings, fileName };
}

/** Which config file of a repository's root to read, given its file paths. */
export function pickRepoConfigFile(paths: Iterable<string>): RepoConfigFileName | undefined {
  const set = new Set(paths);
  return REPO_CONFIG_FILES.find((name) => set.has(name));
}

function fieldName(path: readonly (string | number)[]): string {
  return path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '') || '(root)';
}

function describeIssue(issue: z.ZodIssue): string {
  if (issue.code === 'invalid_type') return `must be ${article(issue.expected)}, not ${issue.received}`;
  if (issue.code === 'unrecognized_keys')
    return `has unknown ${issue.keys.length > 1 ? 'keys' : 'key'} ${issue.keys.map((k) => `"${k}"`).join(', ')}; ${issue.path[0] === 'defaultExclusions' ? `known: ${NON_DOC_KINDS.join(', ')}` : 'known: threshold'}`;
  if (issue.code === 'invalid_union')
    return issue.path[0] === 'defaultExclusions'
      ? `must be false or an object of booleans (${NON_DOC_KINDS.join(', ')})`
      : issue.path[0] === 'duplicatePages'
        ? 'must be a boolean or an object { "threshold": number between 0.5 and 1 }'
        : 'must be a tag string or an object { "tag": string, "title"?: string }';
  if (issue.code === 'too_big' && issue.type === 'number') return `must be at most ${issue.maximum}`;
  if (issue.code === 'too_small' && issue.type === 'number') return `must be at least ${issue.minimum}`;
  if (issue.code === 'too_big') return issue.type === 'array' ? `has more than ${issue.maximum} entries` : `is longer than ${issue.maximum} characters`;
  if (issue.code === 'too_small') return 'must not be empty';
  return issue.message;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Drops blank entries and paths that leave the repository (they could never match). */
function usablePaths(list: readonly string[], key: string, warnings: string[]): string[] {
  const out: string[] = [];
  for (const entry of list) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith('/') || trimmed.split('/').includes('..')) {
      warnings.push(`${key} entry "${trimmed}" ignored: paths are relative to the repository root`);
      continue;
    }
    out.push(trimmed);
  }
  return out;
}

function uniqueVersions(list: readonly (string | { tag: string; title?: string | null })[], warnings: string[]): { tag: string; title?: string }[] {
  const seen = new Set<string>();
  const out: { tag: string; title?: string }[] = [];
  for (const v of list) {
    const entry = typeof v === 'string' ? { tag: v } : v.title ? { tag: v.tag, title: v.title } : { tag: v.tag };
    if (seen.has(entry.tag)) {
      warnings.push(`previousVersions lists "${entry.tag}" twice; the first entry is used`);
      continue;
    }
    seen.add(entry.tag);
    out.push(entry);
  }
  return out;
}
