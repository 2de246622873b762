import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { LibraryRepository } from '../../src/store/libraries';
import type { LibraryModel } from '../../src/store/models/library';

// The library record cache of the context hot path, against the real store.
let app: TestApp;
let Library: LibraryModel;
test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off' });
  Library = app.services.models.Library;
});
test.after.always(async () => {
  await app?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createLibrary(repo: LibraryRepository, id: string): Promise<void> {
  await repo.ensure({ _id: id, source: 'github', title: 'before', description: '', repoUrl: '', cloneUrl: '', branch: '', private: false, teamId: null, trustScore: 5, options: {} } as never);
}

/** Counts the repository's reads of one library by watching the model's findById. */
function countReads(): { reads: () => number; restore: () => void } {
  let n = 0;
  const original = Library.findById.bind(Library);
  Library.findById = ((...args: Parameters<LibraryModel['findById']>) => {
    n++;
    return original(...args);
  }) as LibraryModel['findById'];
  return { reads: () => n, restore: () => void (Library.findById = original) };
}

test.serial('a fresh record is served from memory; a stale one while a single background read refreshes it', async (t) => {
  const repo = new LibraryRepository(Library, app.services.locks, 100);
  await createLibrary(repo, '/cache/a');
  t.is((await repo.get('/cache/a'))?.title, 'before');
  await Library.updateOne({ _id: '/cache/a' }, { $set: { title: 'after' } }); // another instance's write
  t.is((await repo.get('/cache/a'))?.title, 'before', 'within cacheMs: from memory');
  await sleep(120);
  const counter = countReads();
  try {
    const burst = await Promise.all(Array.from({ length: 8 }, () => repo.get('/cache/a')));
    t.true(burst.every((r) => r?.title === 'before'), 'stale: served at once, no wait for the store');
    for (let i = 0; i < 50 && (await repo.get('/cache/a'))?.title !== 'after'; i++) await sleep(10);
    t.is((await repo.get('/cache/a'))?.title, 'after', 'then refreshed in the background');
    t.is(counter.reads(), 1, 'the burst made one read');
  } finally {
    counter.restore();
  }
});

test.serial('past the stale window the read waits for the store; local writes and fresh reads are seen at once', async (t) => {
  const repo = new LibraryRepository(Library, app.services.locks, 40);
  await createLibrary(repo, '/cache/b');
  await repo.get('/cache/b');
  await Library.updateOne({ _id: '/cache/b' }, { $set: { title: 'remote' } });
  await sleep(250); // > 5 × cacheMs
  t.is((await repo.get('/cache/b'))?.title, 'remote');
  await repo.modify('/cache/b', () => ({ title: 'local' }));
  t.is((await repo.get('/cache/b'))?.title, 'local', 'a local write drops the cached record');
  await Library.updateOne({ _id: '/cache/b' }, { $set: { title: 'remote again' } });
  t.is((await repo.get('/cache/b', { fresh: true }))?.title, 'remote again');
  await repo.delete('/cache/b');
  t.is(await repo.get('/cache/b'), null);
});

test.serial('the catalogue list is served stale the same way and refreshed once', async (t) => {
  const repo = new LibraryRepository(Library, app.services.locks, 100);
  await createLibrary(repo, '/cache/c');
  const first = await repo.listCached();
  t.true(first.some((l) => l._id === '/cache/c'));
  await Library.deleteOne({ _id: '/cache/c' }); // another instance deletes it
  await sleep(120);
  t.true((await repo.listCached()).some((l) => l._id === '/cache/c'), 'stale list served');
  for (let i = 0; i < 50 && (await repo.listCached()).some((l) => l._id === '/cache/c'); i++) await sleep(10);
  t.false((await repo.listCached()).some((l) => l._id === '/cache/c'), 'refreshed');
});
