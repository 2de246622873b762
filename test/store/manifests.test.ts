/** store/manifests.ts on the real store: a library's deletion removes exactly its versions' manifests. */
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

test('get reads one version; deleteLibrary removes that library\'s versions only, its id taken literally', async (t) => {
  const { Manifest } = app.services.models;
  for (const id of ['/m/a.b@latest', '/m/a.b@1.0.0', '/m/a.bc@latest', '/m/aXb@latest']) await Manifest.create(manifest(id));
  t.deepEqual((await app.services.manifests.get('/m/a.b', '1.0.0'))?.files, [{ p: 'README.md', h: 'h' }]);
  t.is(await app.services.manifests.get('/m/a.b', '2.0.0'), null);

  await app.services.manifests.deleteLibrary('/m/a.b');
  const left = (await Manifest.find({ _id: { $regex: '^/m/' } }).lean()).map((m) => m._id).sort();
  t.deepEqual(left, ['/m/a.bc@latest', '/m/aXb@latest'], 'the "." is no wildcard and "a.bc" is another library');
});
