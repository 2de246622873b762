/** store/manifests.ts on the real store: a library's deletion removes exactly its versions' manifests, by id. */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';

let app: TestApp;

test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off' });
});

test.after.always(async () => {
  await app?.close();
});

const manifest = (id: string) => ({ _id: id, generation: 1, files: [{ p: 'README.md', h: 'h' }] });

test("get reads one version; deleteVersions removes that library's versions only, its id taken literally", async (t) => {
  const { Manifest } = app.handles.models;
  for (const id of ['/m/a.b@latest', '/m/a.b@1.0.0', '/m/a.bc@latest', '/m/aXb@latest']) await Manifest.create(manifest(id));
  t.deepEqual((await app.services.manifests.get('/m/a.b', '1.0.0'))?.files, [{ p: 'README.md', h: 'h' }]);
  t.is(await app.services.manifests.get('/m/a.b', '2.0.0'), null);

  await app.services.manifests.deleteVersions('/m/a.b', ['1.0.0']);
  const left = (await Manifest.find({ _id: { $regex: '^/m/' } }).lean()).map((m) => m._id).sort();
  t.deepEqual(left, ['/m/a.bc@latest', '/m/aXb@latest'], 'the "." is no wildcard and "a.bc" is another library');
});

test("putMany records a bulk import's manifests, replacing one left by a library of the same key", async (t) => {
  const { Manifest } = app.handles.models;
  await Manifest.create({ _id: '/p/left@latest', generation: 1, files: [] });
  await app.services.manifests.putMany([
    { _id: '/p/new@latest', generation: 5, files: [{ p: 'a.md', h: '1' }] },
    { _id: '/p/left@latest', generation: 6, files: [{ p: 'b.md', h: '2' }] },
  ]);
  t.is((await app.services.manifests.get('/p/new', 'latest'))?.generation, 5);
  t.deepEqual((await app.services.manifests.get('/p/left', 'latest'))?.files, [{ p: 'b.md', h: '2' }]);
});
