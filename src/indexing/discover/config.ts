/**
 * A repository's `shelfmark.json` or `context7.json` (same fields): which folders hold the
 * docs, what to exclude, and which tagged versions to index.
 */
import { z } from 'zod';

export class RepoConfigError extends Error {}

const KNOWN = ['$schema', 'url', 'public_key', 'projectTitle', 'description', 'folders', 'excludeFolders', 'excludeFiles', 'rules', 'previousVersions', 'branch'];

const schema = z.object({
  projectTitle: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  folders: z.array(z.string().max(500)).max(500).optional(),
  excludeFolders: z.array(z.string().max(500)).max(500).optional(),
  excludeFiles: z.array(z.string().max(500)).max(500).optional(),
  rules: z.array(z.string().max(2000)).max(200).optional(),
  previousVersions: z
    .array(z.union([z.string().min(1).max(200), z.object({ tag: z.string().min(1).max(200), title: z.string().max(200).optional() })]))
    .max(100)
    .optional(),
  branch: z.string().min(1).max(200).optional(),
});

export interface RepoConfig {
  projectTitle?: string;
  description?: string;
  folders?: string[];
  excludeFolders?: string[];
  excludeFiles?: string[];
  rules?: string[];
  previousVersions?: { tag: string; title?: string }[];
  branch?: string;
}

/** Parses and validates the config text; throws RepoConfigError naming the bad field. */
export function parseRepoConfig(text: string, fileName: string): { config: RepoConfig; warnings: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RepoConfigError(`${fileName} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new RepoConfigError(`${fileName} must contain a JSON object.`);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RepoConfigError(`${fileName}: field "${issue.path.join('.')}" ${issue.message.toLowerCase()}`);
  }
  const warnings = Object.keys(raw).filter((k) => !KNOWN.includes(k)).map((k) => `unknown field "${k}" ignored`);
  const c = parsed.data;
  return {
    config: {
      ...c,
      previousVersions: c.previousVersions?.map((v) => (typeof v === 'string' ? { tag: v } : v)),
    },
    warnings,
  };
}
