/**
 * Use case "upgrade guide between two indexed versions" (HTTP `GET /v2/upgrade-guide`, the
 * CLI's `upgrade`, the MCP tool `get-upgrade-guide`): the library as the caller may use it
 * (visibility, policy), both versions as indexed — never substituted: a version that is not
 * indexed is 404 `tag_not_found` naming the indexed ones and how to add it — then, from the
 * snippets of both versions, the migration guides and release notes between them and the
 * API diff of their reference pages, code docs and OpenAPI operations, as pages within a
 * token budget (retrieval/upgrade/). Snippets are read per served generation once and kept in
 * a small per-process cache, so paging through a guide reads the store once.
 */
import type { Ports } from '../ports';
import type { Principal } from '../auth/principal';
import { NoSnippetsFoundError, TagNotFoundError, ValidationError } from '../errors';
import { parseLibraryId } from '../domain/library-ids';
import { usableLibrary } from '../catalog/access';
import type { LibraryRecord } from '../store/models/library';
import { clientLibraryId } from '../store/libraries';
import { countTokens } from '../indexing/snippets/tokens';
import { presentedSourceUrl } from '../util/source-url';
import { DEFAULT_TOKENS } from '../search/budget';
import { chooseVersion, type VersionChoice } from './version-choice';
import { looseVersion, notesBetween, summaryNotes, GUIDE_FIELDS, type GuideSnippet } from './upgrade/notes';
import { apiSymbols, diffApis } from './upgrade/api-diff';
import { upgradeGuidePage, type GuideVersion, type UpgradeGuidePage } from './upgrade/pages';

export interface UpgradeGuideRequest {
  /** `/owner/repo` (versions go in `from` and `to`). */
  libraryId: string;
  from: string;
  /** Default: the library's default version (latest). */
  to?: string;
  page?: number;
  tokens?: number;
}

export interface UpgradeGuideAnswer extends UpgradeGuidePage {
  libraryId: string;
  from: GuideVersion;
  to: GuideVersion;
  counts: {
    guideSections: number;
    releaseNoteSections: number;
    breaking: number;
    deprecated: number;
    codemods: number;
    apiRemoved: number;
    apiChanged: number;
    apiDeprecated: number;
    apiAdded: number;
  };
  missing: string[];
}

/** Snippets read per served generation (a guide is paged through; each page reads them again). */
const cache = new Map<string, GuideSnippet[]>();
const CACHE_ENTRIES = 8;

async function versionSnippets(services: Pick<Ports, 'snippets'>, lib: LibraryRecord, choice: VersionChoice): Promise<GuideSnippet[]> {
  const v = choice.record;
  const key = `${lib._id}\u0000${v.version}\u0000${v.generation}\u0000${v.baseGeneration ?? v.generation}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const docs = await services.snippets.read({
    libraryId: lib._id,
    version: v.version,
    generation: v.generation,
    baseGeneration: v.baseGeneration,
    fields: GUIDE_FIELDS,
  });
  // Document order, so guides read as written; links as clients may see them.
  const snippets = (docs as GuideSnippet[])
    .map((d) => ({ ...d, url: presentedSourceUrl(d) }))
    .sort((a, b) => a.path.localeCompare(b.path) || a.startLine - b.startLine || (a.part ?? 0) - (b.part ?? 0));
  cache.set(key, snippets);
  while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return snippets;
}

/** How to index a version that is not indexed yet (said with the 404). */
function howToAdd(lib: LibraryRecord, version: string): string {
  if (lib.source === 'github' || lib.source === 'gitlab' || lib.source === 'bitbucket' || lib.source === 'git') {
    return `To compare with it, index it: POST /v2/add/repo/${lib.source} with docsRepoUrl ${lib.repoUrl.replace(/\/+$/, '')}/tree/${version} (or list it in the repository's previousVersions, or set a version rule), then ask again.`;
  }
  return 'Only indexed versions can be compared: upload or add that version first.';
}

function chosen(lib: LibraryRecord, name: string, field: 'from' | 'to'): VersionChoice {
  try {
    const choice = chooseVersion(lib, undefined, name);
    if (!choice) throw new NoSnippetsFoundError(`${clientLibraryId(lib._id)} (it is still being indexed)`);
    return choice;
  } catch (error) {
    if (error instanceof TagNotFoundError) {
      const available = error.details.availableVersions ?? [];
      throw new TagNotFoundError(
        error.details.libraryId ?? clientLibraryId(lib._id),
        name,
        available,
        error.details.nearest ?? null,
        `(${field}) ${howToAdd(lib, name)}`,
      );
    }
    throw error;
  }
}

function guideVersion(choice: VersionChoice): GuideVersion {
  return { version: choice.served, commit: choice.record.commit, indexedAt: new Date(choice.record.lastUpdateDate).toISOString() };
}

export async function getUpgradeGuide(
  services: Pick<Ports, 'libraries' | 'policies' | 'snippets'>,
  principal: Principal,
  request: UpgradeGuideRequest,
): Promise<UpgradeGuideAnswer> {
  const parsed = parseLibraryId(request.libraryId);
  if (parsed.version !== undefined)
    throw new ValidationError('libraryId names no version for an upgrade guide: give the versions as from and to.', 'libraryId');
  const fromName = request.from.trim();
  if (!fromName) throw new ValidationError('from is required: the version you upgrade from (e.g. "2.16.4").', 'from');
  const page = request.page ?? 1;
  if (!Number.isInteger(page) || page < 1 || page > 1000) throw new ValidationError('page must be a whole number from 1.', 'page');
  const budget = request.tokens ?? DEFAULT_TOKENS;

  const lib = await usableLibrary(services, principal, parsed.libraryId);
  const from = chosen(lib, fromName, 'from');
  const to = chosen(lib, request.to?.trim() || 'latest', 'to');
  const fromV = looseVersion(from.served);
  const toV = looseVersion(to.served);
  if (from.record.version === to.record.version)
    throw new ValidationError(`from and to are the same indexed version (${to.served}): nothing to upgrade.`, 'to');
  if (fromV && toV && !fromV.compare(toV)) throw new ValidationError(`from (${from.served}) and to (${to.served}) are the same version.`, 'to');
  if (fromV && toV && fromV.compare(toV) > 0) throw new ValidationError(`from (${from.served}) is newer than to (${to.served}): swap them.`, 'from');

  const [fromDocs, toDocs] = await Promise.all([versionSnippets(services, lib, from), versionSnippets(services, lib, to)]);
  const { guides, releaseNotes } = notesBetween([...toDocs, ...fromDocs], from.served, to.served);
  const { notes, otherReleaseNotes } = summaryNotes(guides, releaseNotes);
  const diff = diffApis(apiSymbols(fromDocs), apiSymbols(toDocs));
  const id = parsed.libraryId;
  const missing: string[] = [];
  if (guides.length === 0 && releaseNotes.length === 0) {
    missing.push(
      `No migration guide or release notes between ${from.served} and ${to.served} are indexed for ${id}. Changelogs are left out of indexing by default: name the changelog in the repository's shelfmark.json or context7.json folders (e.g. "folders": ["docs", "CHANGES.rst"]) to index it, then refresh.`,
    );
  } else if (releaseNotes.length === 0) {
    missing.push(
      `No release notes (changelog) of ${id} are indexed: changelogs are left out by default (name it in the repository's shelfmark.json or context7.json folders to index it).`,
    );
  }
  if (diff.counted.from === 0 || diff.counted.to === 0) {
    missing.push(
      `No API reference of ${diff.counted.from === 0 ? from.served : to.served} documents symbols under their own headings: the API diff needs reference pages, generated code docs (generateDocs) or an OpenAPI document of both versions.`,
    );
  }
  const parts = { libraryId: id, from: guideVersion(from), to: guideVersion(to), guides, releaseNotes, notes, otherReleaseNotes, diff, missing };
  const answer = upgradeGuidePage(parts, page, budget, countTokens);
  const count = (kind: string) => notes.filter((n) => n.kind === kind).length;
  return {
    ...answer,
    libraryId: id,
    from: parts.from,
    to: parts.to,
    counts: {
      guideSections: guides.length,
      releaseNoteSections: releaseNotes.length,
      breaking: count('breaking'),
      deprecated: count('deprecated'),
      codemods: count('codemod'),
      apiRemoved: diff.removed.length,
      apiChanged: diff.changed.length,
      apiDeprecated: diff.deprecated.length,
      apiAdded: diff.added.length,
    },
    missing,
  };
}
