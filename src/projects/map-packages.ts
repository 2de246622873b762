/**
 * Packages → catalogue libraries. A package maps to a library by, in this order:
 * 1. the registry-name table: an alias of the library of the form `<ecosystem>:<name>`
 *    (`npm:@koa/router`, `pypi:fastapi`), set by admins (PATCH /v2/libraries/{id} aliases);
 * 2. its repository: a Go module path names its repository (`github.com/gin-gonic/gin/v2` →
 *    `/gin-gonic/gin`);
 * 3. its name: the package's name, normalised, is the library's repository name, title or a
 *    plain alias (`koa` → `/koajs/koa`), also with its ecosystem's usual affix on the
 *    repository (`semver` → `/npm/node-semver`, `redis` gem → `/redis/redis-rb`).
 * An npm scope is no rule: `@babel/*` live in /babel/babel but `@koa/router` is not /koajs/koa,
 * so a monorepo's packages map through the table.
 * Several libraries matching by the same rule: one whose id names the package's language
 * (`/python-babel/babel` for the PyPI `babel`) first, then the most trusted (the others are
 * kept as `alternatives`). The candidates come from one catalogue-index query (catalog/find.ts
 * `librariesNamed`), so visibility and the team policy apply as in library search.
 */
import type { Principal } from '../auth/principal';
import type { LibrarySummary } from '../search/types';
import { normalizeName } from '../search/catalog';
import type { FindPorts } from '../catalog/find';
import { librariesNamed } from '../catalog/find';
import type { LockedPackage } from './lockfiles/types';

export type MatchRule = 'registry-name' | 'repository' | 'name';

/** How repositories of each ecosystem's packages are often named besides the package's name. */
const AFFIXES: Record<string, { prefixes: string[]; suffixes: string[]; language: RegExp }> = {
  npm: { prefixes: ['node'], suffixes: ['js'], language: /\b(node|js|javascript)\b/ },
  pypi: { prefixes: ['python', 'py'], suffixes: ['python', 'py'], language: /\b(python|py)\b/ },
  rubygems: { prefixes: ['ruby'], suffixes: ['ruby', 'rb'], language: /\b(ruby|rb|rails)\b/ },
  go: { prefixes: ['go', 'golang'], suffixes: ['go'], language: /\b(go|golang)\b/ },
  cargo: { prefixes: ['rust'], suffixes: ['rs', 'rust'], language: /\b(rs|rust)\b/ },
  maven: { prefixes: ['java'], suffixes: ['java'], language: /\b(java|jvm)\b/ },
};

/** A package name with its ecosystem's affixes, normalised (`semver` → semver, nodesemver, semverjs). */
function affixedNames(ecosystem: string, name: string): string[] {
  const base = normalizeName(name);
  if (base === '') return [];
  const a = AFFIXES[ecosystem];
  return a ? [base, ...a.prefixes.map((x) => x + base), ...a.suffixes.map((x) => base + x)] : [base];
}

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
    for (const n of packageNames(p)) for (const form of affixedNames(p.ecosystem, n)) normals.add(form);
    const repo = p.ecosystem === 'go' ? goModuleRepository(p.name) : null;
    if (repo) ids.add(repo);
  }
  return { normals: [...normals], ids: [...ids] };
}

/** The library a package maps to among the candidates, or null (pure). */
export function matchPackage(p: Pick<LockedPackage, 'ecosystem' | 'name'>, candidates: readonly CandidateLibrary[]): PackageMatch | null {
  const alias = registryAlias(p);
  const repo = p.ecosystem === 'go' ? goModuleRepository(p.name) : null;
  const plain = new Set(
    packageNames(p)
      .map(normalizeName)
      .filter((n) => n !== ''),
  );
  const affixed = new Set(packageNames(p).flatMap((n) => affixedNames(p.ecosystem, n)));
  const repoName = (c: CandidateLibrary) => c.id.split('/').filter(Boolean)[1] ?? '';
  const rules: Array<[MatchRule, (c: CandidateLibrary) => boolean]> = [
    ['registry-name', (c) => c.aliases.some((a) => a.toLowerCase() === alias)],
    ['repository', (c) => repo !== null && c.id.toLowerCase() === repo],
    [
      'name',
      (c) => [c.title, ...c.aliases.filter((a) => !a.includes(':'))].some((n) => plain.has(normalizeName(n))) || affixed.has(normalizeName(repoName(c))),
    ],
  ];
  // Among libraries of one name, the one whose id names the package's language (/python-babel/babel for PyPI's babel).
  const language = AFFIXES[p.ecosystem]?.language;
  const speaks = (c: CandidateLibrary) => (language && language.test(c.id.toLowerCase().replace(/[^a-z0-9]+/g, ' ')) ? 1 : 0);
  for (const [rule, test] of rules) {
    const hits = candidates.filter(test).sort((a, b) => speaks(b) - speaks(a) || b.trustScore - a.trustScore || a.id.localeCompare(b.id));
    const best = hits[0];
    if (best) return { libraryId: best.id, matchedBy: rule, alternatives: hits.slice(1).map((h) => h.id) };
  }
  return null;
}

export function candidateOf(summary: Pick<LibrarySummary, 'id' | 'title' | 'aliases' | 'trustScore'>): CandidateLibrary {
  return { id: summary.id, title: summary.title, aliases: summary.aliases ?? [], trustScore: summary.trustScore ?? 0 };
}

/**
 * Packages per catalogue query: each asks for a few names per package (affixes) and gets at
 * most CANDIDATES_PER_QUERY libraries back, well under Elasticsearch's terms and result-window
 * limits, so no package of a big lockfile goes unmatched for want of room.
 */
export const PACKAGES_PER_QUERY = 500;
const CANDIDATES_PER_QUERY = 5000;

/** Every package's library (null when none matches), from one catalogue query per 500 packages. */
export async function mapPackages(
  ports: Pick<FindPorts, 'catalogIndex' | 'policies'>,
  principal: Principal,
  packages: readonly Pick<LockedPackage, 'ecosystem' | 'name'>[],
): Promise<Array<PackageMatch | null>> {
  const out: Array<PackageMatch | null> = [];
  for (let i = 0; i < packages.length; i += PACKAGES_PER_QUERY) {
    const chunk = packages.slice(i, i + PACKAGES_PER_QUERY);
    const found = await librariesNamed(ports, principal, catalogueKeys(chunk), CANDIDATES_PER_QUERY);
    const candidates = found.map((f) => candidateOf(f.summary));
    for (const p of chunk) out.push(matchPackage(p, candidates));
  }
  return out;
}
