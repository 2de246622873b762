/**
 * POST /v2/add/archive end to end: a zip or tar.gz of built docs is checked, kept, built by
 * the worker and answers context; every unsafe archive is refused with a clear 400 (413 for
 * size) and leaves nothing behind — no library, no job, no file under <dataDir>/archives.
 * A kept file lives exactly as long as a library builds from it.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { createTestApp, uniqueName, type TestApp } from '../harness';
import { adminKey, memberKey } from '../helpers';
import { makeTgz, makeZip } from '../archive-builder';
import { parserFor } from '../../src/indexing/parsers';
import { sha256 } from '../../src/util/hash';

let app: TestApp;
let key: string;

const GUIDE = `# Sprockets guide

Sprockets mesh with chains.

## Fitting a sprocket

Fit the sprocket on the axle and tighten it:

\`\`\`python
from sprockets import Sprocket
s = Sprocket(teeth=32)
s.fit(axle="rear")
\`\`\`
`;

test.before(async () => {
  app = await createTestApp({ RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  key = await adminKey(app);
});
test.after.always(async () => {
  await app?.close();
});

const upload = (file: Buffer, fields: Record<string, string> = {}, name = 'docs.zip', auth = key) => {
  let req = app.request.post('/v2/add/archive').set('authorization', `Bearer ${auth}`);
  for (const [k, v] of Object.entries({ public: 'true', ...fields })) req = req.field(k, v);
  return req.attach('archiveFile', file, name);
};

const archivesDir = () => path.join(app.services.config.dataDir, 'archives');
const kept = () => (fs.existsSync(archivesDir()) ? fs.readdirSync(archivesDir()).sort() : []);

test.serial('a zip of a Markdown folder becomes /archives/<slug> and answers context', async (t) => {
  const zip = makeZip([
    { name: 'sprockets-docs/' },
    { name: 'sprockets-docs/README.md', data: '# Sprockets\n\nGears for chains.\n' },
    { name: 'sprockets-docs/guide/fitting.md', data: GUIDE },
    { name: 'sprockets-docs/logo.png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) },
  ]);
  const res = await upload(zip, { libraryTitle: 'Sprockets' });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.body.libraryName, '/archives/sprockets');
  const ctx = await app.request
    .get('/v2/context')
    .set('authorization', `Bearer ${key}`)
    .query({ libraryId: '/archives/sprockets', query: 'fit a sprocket on the axle', type: 'json' });
  t.is(ctx.status, 200);
  t.regex(JSON.stringify(ctx.body), /s\.fit\(axle=\\"rear\\"\)/);
  // The top folder is dropped from paths; links say where the page came from.
  t.regex(JSON.stringify(ctx.body), /archive:\/archives\/sprockets\/guide\/fitting\.md/);
  const lib = await app.request.get('/v2/libraries/archives/sprockets').set('authorization', `Bearer ${key}`);
  t.is(lib.body.source, 'archive');
  t.is(lib.body.sourceOptions.fileName, 'docs.zip');
  const jobs = await app.request.get('/v2/jobs').set('authorization', `Bearer ${key}`).query({ libraryId: '/archives/sprockets' });
  t.is(jobs.body.jobs[0].kind, 'add-archive');
});

test.serial("the title typed for an upload is the library's title, not only its id; the README's does not replace it", async (t) => {
  const zip = makeZip([
    { name: 'README.md', data: '# Cogs\n\nCogs turn wheels.\n' },
    { name: 'guide.md', data: GUIDE },
  ]);
  const res = await upload(zip, { libraryTitle: 'Cogs handbook', description: 'How to fit cogs.' });
  t.is(res.status, 200, JSON.stringify(res.body));
  const lib = await app.request.get('/v2/libraries/archives/cogs-handbook').set('authorization', `Bearer ${key}`);
  t.like(lib.body, { title: 'Cogs handbook', description: 'How to fit cogs.', edited: { title: true, description: true } });
  await app.request.delete('/v2/libraries/archives/cogs-handbook').set('authorization', `Bearer ${key}`);
});

test.serial('a tar.gz works the same; a second upload without force is 409, with force it replaces', async (t) => {
  const tgz = await makeTgz([{ name: 'docs/index.md', data: GUIDE.replace('teeth=32', 'teeth=48') }]);
  const dup = await upload(tgz, { libraryTitle: 'Sprockets' }, 'docs.tar.gz');
  t.is(dup.status, 409);
  t.is(dup.body.error, 'duplicate_repo');
  const forced = await upload(tgz, { libraryTitle: 'Sprockets', force: 'true' }, 'docs.tar.gz');
  t.is(forced.status, 200, JSON.stringify(forced.body));
  const ctx = await app.request
    .get('/v2/context')
    .set('authorization', `Bearer ${key}`)
    .query({ libraryId: '/archives/sprockets', query: 'fit a sprocket', type: 'json' });
  t.regex(JSON.stringify(ctx.body), /teeth=48/);
  t.notRegex(JSON.stringify(ctx.body), /teeth=32/);
});

(parserFor('index.html') ? test.serial : test.serial.skip)('a zip of a built static site is read through the HTML parser', async (t) => {
  const page = `<!doctype html><html><body><nav>Home | Guide</nav><main><h1>Cogs</h1><p>Cogs turn.</p><h2>Turning a cog</h2><pre><code class="language-js">cog.turn({ degrees: 90 });</code></pre></main><footer>© cogs</footer></body></html>`;
  const res = await upload(
    makeZip([
      { name: 'site/index.html', data: page },
      { name: 'site/_static/app.js', data: 'x()' },
    ]),
    { libraryTitle: 'Cogs site' },
  );
  t.is(res.status, 200, JSON.stringify(res.body));
  const ctx = await app.request
    .get('/v2/context')
    .set('authorization', `Bearer ${key}`)
    .query({ libraryId: '/archives/cogs-site', query: 'turn a cog', type: 'json' });
  t.regex(JSON.stringify(ctx.body), /cog\.turn/);
});

test.serial('unsafe archives are refused with a clear error and leave nothing behind', async (t) => {
  const zeros = Buffer.alloc(20 * 1024 * 1024);
  const cases: Array<[string, Buffer, string, number, RegExp]> = [
    [
      'zip-slip',
      makeZip([
        { name: 'ok.md', data: '# ok' },
        { name: '../../etc/evil.md', data: '# evil' },
      ]),
      'a.zip',
      400,
      /leaves the archive's folder/,
    ],
    ['absolute path', await makeTgz([{ name: '/etc/evil.md', data: '# evil' }]), 'a.tgz', 400, /absolute path/],
    ['zip symlink', makeZip([{ name: 'docs/link.md', data: '/etc/passwd', mode: 0o120777 }]), 'a.zip', 400, /symbolic link/],
    ['tar symlink', await makeTgz([{ name: 'docs/link.md', type: 'symlink', linkname: '/etc/passwd' }]), 'a.tgz', 400, /symbolic link/],
    [
      'tar hard link',
      await makeTgz([
        { name: 'a.md', data: '# a' },
        { name: 'b.md', type: 'link', linkname: '/etc/passwd' },
      ]),
      'a.tgz',
      400,
      /hard link/,
    ],
    ['device file', await makeTgz([{ name: 'dev/sda', type: 'block-device' }]), 'a.tgz', 400, /block-device/],
    ['zip bomb', makeZip([{ name: 'bomb.md', data: zeros }]), 'a.zip', 400, /decompression bomb/],
    ['tar.gz bomb', await makeTgz([{ name: 'bomb.md', data: zeros }]), 'a.tgz', 400, /decompression bomb/],
    ['not an archive', Buffer.from('# just markdown\n'), 'a.zip', 400, /must be a zip or a tar\.gz/],
  ];
  const before = kept();
  const jobsBefore = await app.handles.models.Job.countDocuments({});
  for (const [name, file, fileName, status, message] of cases) {
    const res = await upload(file, { libraryTitle: `Evil ${name}` }, fileName);
    t.is(res.status, status, `${name}: ${JSON.stringify(res.body)}`);
    t.is(res.body.error, 'validation_error', name);
    t.regex(res.body.message, message, name);
    t.regex(res.body.message, /^archiveFile/, `${name} names the field`);
  }
  t.deepEqual(kept(), before, 'no archive was kept');
  t.is(await app.handles.models.Job.countDocuments({}), jobsBefore, 'no job was made');
  const libs = await app.request.get('/v2/libraries').set('authorization', `Bearer ${key}`);
  t.false(JSON.stringify(libs.body).includes('evil'), 'no library was made');
});

test.serial('an archive over 50 MB is refused while it streams in: 413 payload_too_large', async (t) => {
  const before = kept();
  const res = await upload(Buffer.alloc(50 * 1024 * 1024 + 1, 1), { libraryTitle: 'Huge' });
  t.is(res.status, 413);
  t.is(res.body.error, 'payload_too_large');
  t.regex(res.body.message, /archiveFile is larger than 50 MB/);
  t.deepEqual(kept(), before);
});

test.serial('a member uploads to their team (private); public=true is for admins; no file is 400', async (t) => {
  const member = await memberKey(app, { teamPlan: 'pro' });
  const zip = makeZip([{ name: 'guide.md', data: GUIDE }]);
  const pub = await upload(zip, { libraryTitle: 'Team sprockets' }, 'docs.zip', member.key);
  t.is(pub.status, 403);
  let req = app.request.post('/v2/add/archive').set('authorization', `Bearer ${member.key}`).field('libraryTitle', 'Team sprockets');
  const res = await req.attach('archiveFile', zip, 'docs.zip');
  t.is(res.status, 200, JSON.stringify(res.body));
  const lib = await app.services.libraries.findCopy('/archives/team-sprockets', member.teamId ?? null, { fresh: true });
  t.is(lib?.private, true);
  req = app.request.post('/v2/add/archive').set('authorization', `Bearer ${key}`).field('libraryTitle', 'x');
  const none = await req;
  t.is(none.status, 400);
  t.regex(none.body.message, /archiveFile/);
});

// The archives folder is shared by every test process on this data directory: the files
// these tests follow carry a unique line, so their hashes are theirs alone.
const uniqueZip = (extra = '') => makeZip([{ name: 'guide.md', data: `${GUIDE}\nBuilt by ${uniqueName('z')}${extra}.\n` }]);
const fileOf = (zip: Buffer) => path.join(archivesDir(), `${sha256(zip)}.zip`);
const remove = (id: string) => app.request.delete(`/v2/libraries${id}`).set('authorization', `Bearer ${key}`);

test.serial('deleting an archive library deletes its kept file; refresh reads it while the library exists', async (t) => {
  const zip = uniqueZip();
  const res = await upload(zip, { libraryTitle: 'Kept gears' });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.true(fs.existsSync(fileOf(zip)), 'kept while the library exists');
  const refreshed = await app.request.post('/v2/refresh').set('authorization', `Bearer ${key}`).send({ libraryName: '/archives/kept-gears' });
  t.true([200, 202].includes(refreshed.status), JSON.stringify(refreshed.body));
  t.true(fs.existsSync(fileOf(zip)), 'a refresh does not consume the file');
  const deleted = await remove('/archives/kept-gears');
  t.is(deleted.status, 200, JSON.stringify(deleted.body));
  t.false(fs.existsSync(fileOf(zip)), 'the file went with the library');
});

test.serial('a failed first add leaves no library and no file', async (t) => {
  // Passes every safety check, but holds no documentation: the build fails no_snippets_found.
  const zip = makeZip([{ name: 'logo.png', data: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]), Buffer.from(uniqueName())]) }]);
  const res = await upload(zip, { libraryTitle: 'Empty gears' });
  t.is(res.status, 404, JSON.stringify(res.body));
  t.is(res.body.error, 'no_snippets_found');
  t.is(await app.services.libraries.findCopy('/archives/empty-gears', null, { fresh: true }), null, 'no library');
  t.false(fs.existsSync(fileOf(zip)), 'no file');
});

test.serial('a file two libraries share survives the first delete and goes with the last', async (t) => {
  const zip = uniqueZip();
  for (const title of ['Shared gears one', 'Shared gears two']) {
    const res = await upload(zip, { libraryTitle: title });
    t.is(res.status, 200, JSON.stringify(res.body));
  }
  t.is((await remove('/archives/shared-gears-one')).status, 200);
  t.true(fs.existsSync(fileOf(zip)), 'still used by the second library');
  const ctx = await app.request.post('/v2/refresh').set('authorization', `Bearer ${key}`).send({ libraryName: '/archives/shared-gears-two' });
  t.true([200, 202].includes(ctx.status), JSON.stringify(ctx.body));
  t.is((await remove('/archives/shared-gears-two')).status, 200);
  t.false(fs.existsSync(fileOf(zip)));
});

test.serial('a forced upload that replaces the archive deletes the superseded file (unless shared)', async (t) => {
  const first = uniqueZip();
  const shared = uniqueZip(' (shared)');
  t.is((await upload(first, { libraryTitle: 'Replaced gears' })).status, 200);
  const second = uniqueZip(' (second)');
  const forced = await upload(second, { libraryTitle: 'Replaced gears', force: 'true' });
  t.is(forced.status, 200, JSON.stringify(forced.body));
  t.false(fs.existsSync(fileOf(first)), 'the superseded upload is gone');
  t.true(fs.existsSync(fileOf(second)), 'the replacing upload is kept');
  // A superseded file another library still builds from stays.
  t.is((await upload(shared, { libraryTitle: 'Replacing gears a' })).status, 200);
  t.is((await upload(shared, { libraryTitle: 'Replacing gears b' })).status, 200);
  t.is((await upload(uniqueZip(' (third)'), { libraryTitle: 'Replacing gears a', force: 'true' })).status, 200);
  t.true(fs.existsSync(fileOf(shared)), 'still used by Replacing gears b');
  for (const id of ['/archives/replaced-gears', '/archives/replacing-gears-a', '/archives/replacing-gears-b']) t.is((await remove(id)).status, 200);
  t.false(fs.existsSync(fileOf(second)));
  t.false(fs.existsSync(fileOf(shared)));
});
