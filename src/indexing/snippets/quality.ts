/**
 * Library quality: `benchmarkScore` (0–100) from deterministic snippet checks, and the
 * default `trustScore` per source.
 */
import type { SnippetDocument } from '../types';

type Checked = Pick<SnippetDocument, 'kind' | 'title' | 'description' | 'language' | 'code' | 'content' | 'path'>;

/**
 * Default trust (0–10) by source when an admin has not set one: hosted repositories (7)
 * have a public owner and history; uploaded OpenAPI documents (6) are first-party API
 * descriptions but unreviewed; arbitrary git URLs (5) are the least known. Admins override
 * it per library (PATCH /v2/libraries/:owner/:repo).
 */
export const DEFAULT_TRUST_SCORES: Record<'github' | 'gitlab' | 'bitbucket' | 'git' | 'openapi', number> = {
  github: 7,
  gitlab: 7,
  bitbucket: 7,
  git: 5,
  openapi: 6,
};

const CHECK_WEIGHTS: Record<string, number> = {
  'missing title': 1,
  'missing description': 1,
  'missing language': 1,
  'code too short': 1.5,
  'licence or changelog': 2,
  'directory tree': 2,
  'imports only': 1.5,
  'install command only': 1.5,
};

const IMPORT_LINE = /^\s*(import\s|from\s+\S+\s+import\s|export\s+\*\s+from|const\s+\w+\s*=\s*require\(|(var|let)\s+\w+\s*=\s*require\(|require\(|using\s+[\w.]+;|#include\s|use\s+[\w:]+;|@import\s)/;
const INSTALL_LINE = /^\s*(\$\s*)?(npm\s+(i|install|add)|pnpm\s+(add|i|install)|yarn\s+add|bun\s+add|pip3?\s+install|python3?\s+-m\s+pip\s+install|poetry\s+add|uv\s+(add|pip\s+install)|conda\s+install|go\s+get|cargo\s+add|composer\s+require|gem\s+install|npx\s+\S+\s+init)\b/;
const TREE_LINE = /[├└│]|^\s*[|`]--/;

/** The checks a snippet fails (empty when it is a good snippet). */
export function snippetIssues(s: Checked): string[] {
  const issues: string[] = [];
  if (!s.title.trim()) issues.push('missing title');
  const text = `${s.title}\n${s.content}`.toLowerCase();
  if (/\b(permission is hereby granted|licensed under the|all rights reserved)\b/.test(text) || /(^|\/)(changelog|changes|history|license)[^/]*$/i.test(s.path)) issues.push('licence or changelog');
  if (s.kind === 'code') {
    const lines = s.code.split('\n').filter((l) => l.trim() !== '');
    if (!s.description.trim()) issues.push('missing description');
    if (!s.language.trim()) issues.push('missing language');
    if (lines.length < 3 && s.code.trim().length < 80) issues.push('code too short');
    if (lines.length > 0 && lines.filter((l) => TREE_LINE.test(l)).length >= Math.ceil(lines.length / 2)) issues.push('directory tree');
    if (lines.length > 0 && lines.every((l) => IMPORT_LINE.test(l) || /^\s*(\/\/|#)/.test(l))) issues.push('imports only');
    if (lines.length > 0 && lines.every((l) => INSTALL_LINE.test(l) || /^\s*(#|\/\/)/.test(l))) issues.push('install command only');
  }
  return issues;
}

/** Weighted pass rate of every check over every snippet, 0–100 with one decimal. */
export function benchmarkScore(snippets: readonly Checked[]): number {
  if (snippets.length === 0) return 0;
  let possible = 0;
  let lost = 0;
  for (const s of snippets) {
    const applicable = s.kind === 'code' ? Object.values(CHECK_WEIGHTS) : [CHECK_WEIGHTS['missing title'], CHECK_WEIGHTS['licence or changelog']];
    possible += applicable.reduce((a, b) => a + b, 0);
    for (const issue of snippetIssues(s)) lost += CHECK_WEIGHTS[issue] ?? 0;
  }
  return Math.round((1000 * (possible - lost)) / possible) / 10;
}
