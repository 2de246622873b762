/**
 * Packages → catalogue libraries. A package maps to a library by, in this order:
 * 1. the registry-name table: an alias of the library of the form `<ecosystem>:<name>`
 *    (`npm:@koa/router`, `pypi:fastapi`), set by admins (PATCH /v2/libraries/{id} aliases);
 * 2. its repository: a Go module path names its repository (`github.com/gin-gonic/gin/v2` →
 *    `/gin-gonic/gin`);
 * 3. its name: the package's name, normalised, is the library's repository name, title or a
 *    plain alias (`koa` → `/koajs/koa`).
 * Several libraries matching by the same rule: the most trusted wins (the others are kept as
 * `alternatives`). The candidates come from one catalogue-index query (catalog/find.ts
 * `librariesNamed`), so visibility and the team policy apply as in library search.
 */
import type { Principal } from '../auth/principal';
import type { LibrarySummary } from '../search/types';
import { normalizeName } from '../search/catalog';
import type { FindPorts } from '../catalog/find';
import { librariesNamed } from '../catalog/find';
import type { LockedPackage } from './lockfiles/types';

export type MatchRule = 'registry-name' | 'repository' | 'name';

export interface PackageMatch {
  libraryId: string;
  matchedBy: MatchRule;
  alternatives: string[];
}

export interface CandidateLibrary {
  id: string;
  title: string;
  aliases: readonly string[];
  trustScore: number;
}

/** The `/owner/repo` a Go module path names, when it is hosted on a known forge. */
export function goModuleRepository(modulePath: string): string | null {
  const m = /^(github\.com|gitlab\.com|bitbucket\.org)\/([^/]+)\/([^/]+)/.exec(modulePath);
  return m?.[2] && m[3] ? `/${m[2]}/${m[3]}`.toLowerCase() : null;
}

/** The names a package is known by, for the name rule. */
export function packageNames(p: Pick<LockedPackage, 'ecosystem' | 'name'>): string[] {
  switch (p.ecosystem) {
    case 'go': {
      // github.com/go-playground/validator/v10 → validator; gopkg.in/yaml.v3 → yaml.
      const parts = p.name.split('/').filter((s) => !/^v\d+$/.test(s));
      return [(parts[parts.length - 1] ?? '').replace(/\.v\d+$/, '')];
    }
    case 'maven':
      return [p.name.split(':')[1] ?? p.name];
    default:
      return [p.name];
  }
}

/** The registry-name alias a package is listed under (`npm:koa`). */
export const registryAlias = (p: Pick<LockedPackage, 'ecosystem' | 'name'>) => `${p.ecosystem}:${p.name}`.toLowerCase();

/** What to ask the catalogue index for: every normalised name and repository id of the packages. */
export function catalogueKeys(packages: readonly Pick<LockedPackage, 'ecosystem' | 'name'>[]): { normals: string[]; ids: string[] } {
  const normals = new Set<string>();
  const ids = new Set<string>();
  for (const p of packages) {
    normals.add(normalizeName(registryAlias(p)));
    for (const n of packageNames(p)) if (normalizeName(n) !== '') normals.add(normalizeName(n));
    const repo = p.ecosystem === 'go' ? goModuleRepository(p.name) : null;
    if (repo) ids.add(repo);
  }
  return { normals: [...normals], ids: [...ids] };
}

/** The library a package maps to among the candidates, or null (pure). */
export function matchPackage(p: Pick<LockedPackage, 'ecosystem' | 'name'>, candidates: readonly CandidateLibrary[]): PackageMatch | null {
  const alias = registryAlias(p);
  const repo = p.ecosystem === 'go' ? goModuleRepository(p.name) : null;
  const names = new Set(packageNames(p).map(normalizeName).filter((n) => n !== ''));
  const rules: Array<[MatchRule, (c: CandidateLibrary) => boolean]> = [
    ['registry-name', (c) => c.aliases.some((a) => a.toLowerCase() === alias)],
    ['repository', (c) => repo !== null && c.id.toLowerCase() === repo],
    ['name', (c) => [c.id.split('/').filter(Boolean)[1] ?? '', c.title, ...c.aliases.filter((a) => !a.includes(':'))].some((n) => names.has(normalizeName(n)))],
  ];
  for (const [rule, test] of rules) {
    const hits = candidates.filter(test).sort((a, b) => b.trustScore - a.trustScore || a.id.localeCompare(b.id));
    const best = hits[0];
    if (best) return { libraryId: best.id, matchedBy: rule, alternatives: hits.slice(1).map((h) => h.id) };
  }
  return null;
}

export function candidateOf(summary: Pick<LibrarySummary, 'id' | 'title' | 'aliases' | 'trustScore'>): CandidateLibrary {
  return { id: summary.id, title: summary.title, aliases: summary.aliases ?? [], trustScore: summary.trustScore ?? 0 };
}

/** Every package's library (null when none matches), from one catalogue query. */
export async function mapPackages(ports: Pick<FindPorts, 'catalogIndex' | 'policies'>, principal: Principal, packages: readonly Pick<LockedPackage, 'ecosystem' | 'name'>[]): Promise<Array<PackageMatch | null>> {
  if (packages.length === 0) return [];
  const found = await librariesNamed(ports, principal, catalogueKeys(packages));
  const candidates = found.map((f) => candidateOf(f.summary));
  return packages.map((p) => matchPackage(p, candidates));
}
