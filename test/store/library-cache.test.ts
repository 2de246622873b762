import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { LibraryRepository } from '../../src/store/libraries';
import { CatalogGeneration, type GenerationSource } from '../../src/store/library-cache';
import type { LibraryModel } from '../../src/store/models/library';

// The library record cache of the context hot path, invalidated by the catalogue's
// generation, against the real store; two repositories on one database are two instances.
let app: TestApp;
let Library: LibraryModel;
test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off' });
  Library = app.handles.models.Library;
});
test.after.always(async () => {
  await app?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createLibrary(repo: LibraryRepository, id: string): Promise<void> {
  await repo.ensure({
    _id: id,
    source: 'github',
    title: 'before',
    description: '',
    repoUrl: '',
    cloneUrl: '',
    branch: '',
    private: false,
    teamId: null,
    trustScore: 5,
    options: {},
  } as never);
}

/** Counts the repository's reads of library records by watching the model's findById. */
function countReads(): { reads: () => number; restore: () => void } {
  let n = 0;
  const original = Library.findById.bind(Library);
  Library.findById = ((...args: Parameters<LibraryModel['findById']>) => {
    n++;
    return original(...args);
  }) as LibraryModel['findById'];
  return { reads: () => n, restore: () => void (Library.findById = original) };
}

/** The real generation, with its reads counted. */
function countedGeneration(): GenerationSource & { reads: number } {
  const real = new CatalogGeneration(app.handles.mongo);
  const counted = { reads: 0, read: () => (counted.reads++, real.read()), bump: () => real.bump() };
  return counted;
}

test.serial("a record is served from memory while the generation stands; another instance's write is seen after one check", async (t) => {
  const here = new LibraryRepository(Library, app.services.locks, new CatalogGeneration(app.handles.mongo), { checkMs: 100 });
  const there = new LibraryRepository(Library, app.services.locks, new CatalogGeneration(app.handles.mongo), { checkMs: 100 });
  await createLibrary(there, '/cache/a');
  t.is((await here.get('/cache/a'))?.title, 'before');
  const counter = countReads();
  try {
    await sleep(150);
    for (let i = 0; i < 5; i++) t.is((await here.get('/cache/a'))?.title, 'before');
    await sleep(150);
    t.is((await here.get('/cache/a'))?.title, 'before');
    t.is(counter.reads(), 0, 'past checkMs with nothing changed: no record read');
    await there.modify('/cache/a', () => ({ title: 'after' })); // the other instance's write
    await sleep(150);
    await here.get('/cache/a'); // this call starts the check; the record may still be the cached one
    for (let i = 0; i < 50 && (await here.get('/cache/a'))?.title !== 'after'; i++) await sleep(10);
    t.is((await here.get('/cache/a'))?.title, 'after', 'seen once the generation was read');
    const reads = counter.reads();
    const burst = await Promise.all(Array.from({ length: 8 }, () => here.get('/cache/a')));
    t.true(burst.every((r) => r?.title === 'after'));
    t.is(counter.reads(), reads, 'then served from memory again');
  } finally {
    counter.restore();
  }
});

test.serial('local writes and fresh reads are seen at once; a deleted record reads as null', async (t) => {
  const repo = new LibraryRepository(Library, app.services.locks, new CatalogGeneration(app.handles.mongo), { checkMs: 10_000 });
  await createLibrary(repo, '/cache/b');
  await repo.get('/cache/b');
  await repo.modify('/cache/b', () => ({ title: 'local' }));
  t.is((await repo.get('/cache/b'))?.title, 'local', 'a local write drops the cached record');
  await Library.updateOne({ _id: '/cache/b' }, { $set: { title: 'written behind its back' } });
  t.is((await repo.get('/cache/b'))?.title, 'local', 'a write that did not go through a repository is not seen from the cache');
  t.is((await repo.get('/cache/b', { fresh: true }))?.title, 'written behind its back');
  await repo.delete('/cache/b');
  t.is(await repo.get('/cache/b'), null);
});

test.serial('at rest nothing is read; a record older than maxAgeMs is read again', async (t) => {
  const generation = countedGeneration();
  const repo = new LibraryRepository(Library, app.services.locks, generation, { checkMs: 20, maxAgeMs: 200 });
  await createLibrary(repo, '/cache/c');
  await repo.get('/cache/c');
  const before = generation.reads;
  await sleep(300);
  t.is(generation.reads, before, 'no gets, no generation reads');
  const counter = countReads();
  try {
    await repo.get('/cache/c');
    t.is(counter.reads(), 1, 'past maxAgeMs the record is read again');
  } finally {
    counter.restore();
  }
});
