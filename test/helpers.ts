/** Test helpers on top of the harness: users, keys and sessions through the real services. */
import type { NewLibrary } from '../src/store/libraries';
import { fencedBlocks } from '../src/search/format/fence';
import type { TestApp } from './harness';
import type { SnippetDocument } from '../src/search/types';
import type { GitJobParams } from '../src/domain/job-params';

export const ADMIN_ID = 'usr_admin';
export const ADMIN_PASSWORD = 'changed-admin-pass-1';

/**
 * The default administrator with its credentials changed (to ADMIN_PASSWORD, as PUT
 * /v2/auth/password would) and a new API key: the usual starting point. The one factory.
 */
export async function adminKey(t: TestApp): Promise<string> {
  const admin = await t.services.users.require(ADMIN_ID);
  if (admin.mustChangePassword) await t.services.users.setCredentials(ADMIN_ID, { password: ADMIN_PASSWORD });
  return (await t.services.keys.create(ADMIN_ID, 'test admin')).value;
}

/** A member (optionally owner of a new team with a plan) and their key. */
export async function memberKey(
  t: TestApp,
  options: { teamPlan?: 'free' | 'pro' | 'enterprise'; owner?: boolean; username?: string } = {},
): Promise<{ key: string; userId: string; teamId?: string }> {
  const user = await t.services.accounts.createUser({
    username: options.username ?? `m${Math.random().toString(36).slice(2, 10)}`,
    password: 'password123',
    role: 'member',
  });
  let teamId: string | undefined;
  if (options.teamPlan) {
    const team = await t.services.accounts.createTeam({
      name: `team ${user.username}`,
      plan: options.teamPlan,
      ownerId: options.owner === false ? null : user._id,
    });
    teamId = team._id;
    if (options.owner === false) await t.services.accounts.addMember(team._id, user._id, 'member');
  }
  const { value } = await t.services.keys.create(user._id, 'member key');
  return { key: value, userId: user._id, teamId };
}

/**
 * A new library record for `ensure`: a public GitHub library titled after its id's last part,
 * with no repository to clone; `fields` overrides any of it.
 */
export function testLibrary(libraryId: string, fields: Partial<Omit<NewLibrary, '_id'>> = {}): NewLibrary {
  return {
    _id: libraryId,
    source: 'github',
    title: libraryId.split('/').pop() ?? libraryId,
    description: '',
    repoUrl: '',
    cloneUrl: '',
    branch: 'main',
    private: false,
    teamId: null,
    trustScore: 7,
    options: { skipVersionFiltering: false, generateDocs: false },
    ...fields,
  };
}

/**
 * A public library built from Markdown pages through the real pipeline (parse → finish →
 * publish), without a Git server: for tests that need something to query.
 */
export async function seedLibrary(t: Pick<TestApp, 'services'>, libraryId: string, pages: Record<string, string>): Promise<void> {
  const { buildVersion } = await import('../src/indexing/pipeline/build');
  const { detachedContext } = await import('../src/indexing/jobs/detached');
  const { memorySnapshot } = await import('../src/indexing/sources/memory-source');
  await t.services.libraries.ensure(testLibrary(libraryId, { repoUrl: `https://example.test${libraryId}` }));
  const snapshot = memorySnapshot(pages, { fileUrl: (p, line) => `https://example.test${libraryId}/blob/main/${p}#L${line}` });
  const ctx = detachedContext({ kind: 'add-repo', params: testJobParams(), libraryId, version: 'latest' });
  await buildVersion(ctx, t.services.buildDeps(), snapshot);
}

/** The snippets of the generation a library version serves now (read fresh from the store). */
export async function servedSnippets(t: TestApp, libraryId: string, version = 'latest'): Promise<SnippetDocument[]> {
  const lib = await t.services.libraries.get(libraryId, { fresh: true });
  const served = lib?.versions.find((v) => v.version === version);
  return t.services.snippets.read({ libraryId, version, generation: served?.generation ?? 0, baseGeneration: served?.baseGeneration });
}

/** Params of a Git job for tests whose handler does not build (the queue, the worker, the API). */
export function testJobParams(): GitJobParams {
  return {
    source: 'git',
    host: 'git',
    cloneUrl: 'file:///nowhere',
    webUrl: '',
    skipVersionFiltering: false,
    generateDocs: false,
    followPreviousVersions: false,
  };
}

/**
 * The served snippets with the vectors Elasticsearch indexed for them. `_source` holds no
 * vectors (mapping version 4); Elasticsearch 9 gives them back on request from the vector
 * field itself (`_source.exclude_vectors: false`), which is what the kNN leg searches.
 */
export async function servedSnippetsWithVectors(t: TestApp, libraryId: string, version = 'latest'): Promise<SnippetDocument[]> {
  const lib = await t.services.libraries.get(libraryId, { fresh: true });
  const served = lib?.versions.find((v) => v.version === version);
  const res = await t.services.snippets.search({
    index: t.services.snippets.alias,
    size: 10_000,
    query: { bool: { filter: [{ term: { libraryId } }, { term: { version } }, { term: { generation: served?.generation ?? 0 } }] } },
    // Not in the 8.19 client's types; Elasticsearch 9.x reads it.
    _source: { exclude_vectors: false } as never,
  });
  return res.hits.hits.flatMap((h) => (h._source ? [h._source] : []));
}

/**
 * Every code example of some snippets, one entry per fenced block (a section's snippet holds
 * its examples in place in `content`; an operation's or code doc's snippet has its one block
 * in `code`), with the snippet's path.
 */
export function codeBlocks(
  docs: readonly Pick<SnippetDocument, 'path' | 'content' | 'code' | 'language' | 'kind'>[],
): Array<{ path: string; language: string; code: string }> {
  return docs.flatMap((d) => {
    const blocks = d.content !== '' ? fencedBlocks(d.content) : d.kind === 'code' ? [{ language: d.language, code: d.code }] : [];
    return blocks.map((b) => ({ path: d.path, language: b.language, code: b.code }));
  });
}

/**
 * Counts the calls of `target[method]` (still calling through) until `restore`: how a test
 * checks that a path asked a store something, or nothing.
 */
export function countCalls<T extends object, K extends keyof T>(target: T, method: K): { calls: () => number; restore: () => void } {
  const original = target[method];
  if (typeof original !== 'function') throw new Error(`${String(method)} is not a method`);
  let n = 0;
  const counted = function (this: unknown, ...args: unknown[]) {
    n++;
    return (original as (...a: unknown[]) => unknown).apply(target, args);
  };
  target[method] = counted as T[K];
  return { calls: () => n, restore: () => void (target[method] = original) };
}
