import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '../harness';
import { adminKey, memberKey } from '../helpers';

const CORPUS = path.resolve('..', 'shared', 'corpus', 'openapi');
const haveCorpus = fs.existsSync(CORPUS);
const maybe = haveCorpus ? test.serial : test.serial.skip;
if (!haveCorpus) console.log(`skipping corpus uploads: ${CORPUS} is absent`);

let app: TestApp;
let key: string;

const PETSTORE = JSON.stringify({
  openapi: '3.0.0',
  info: { title: 'Tiny Pets', version: '1.2.3', description: 'A tiny pet API.' },
  servers: [{ url: 'https://pets.example.com/v1' }],
  paths: {
    '/pets': {
      get: {
        summary: 'List all pets',
        operationId: 'listPets',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
        responses: { '200': { description: 'ok' } },
      },
      post: { summary: 'Create a pet', operationId: 'createPet', responses: { '201': { description: 'created' } } },
    },
    '/pets/{petId}': {
      get: {
        summary: 'Info for a specific pet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
});

test.before(async () => {
  app = await createTestApp({ RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  key = await adminKey(app);
});
test.after.always(async () => {
  await app?.close();
});

// The admin publishes (public=true) unless a test says otherwise: a team's upload is private.
const upload = (file: Buffer | string, fields: Record<string, string> = {}, name = 'spec.json', auth = key) => {
  let req = app.request.post('/v2/add/openapi-upload').set('authorization', `Bearer ${auth}`);
  for (const [k, v] of Object.entries({ public: 'true', ...fields })) if (v !== '') req = req.field(k, v);
  return req.attach('openapiFile', Buffer.isBuffer(file) ? file : Buffer.from(file), name);
};

test.serial('uploads a document; each operation becomes a queryable snippet', async (t) => {
  const res = await upload(PETSTORE);
  t.is(res.status, 200, JSON.stringify(res.body));
  t.deepEqual(Object.keys(res.body).sort(), ['libraryName', 'message']);
  t.is(res.body.libraryName, '/openapi/tiny-pets');
  const ctx = await app.request.get('/v2/context').query({ libraryId: '/openapi/tiny-pets', query: 'create a new pet', type: 'json' });
  t.is(ctx.status, 200);
  t.regex(ctx.body.snippets[0].title, /^POST \/pets/);
  t.regex(ctx.body.snippets[0].code, /curl/);
  const tag = await app.request.get('/v2/context').query({ libraryId: '/openapi/tiny-pets/1.2.3', query: 'list pets', type: 'json' });
  t.is(tag.status, 200, 'info.version addresses the library');
  const jobs = await app.request.get('/v2/jobs').query({ libraryId: '/openapi/tiny-pets' }).set('authorization', `Bearer ${key}`);
  t.is(jobs.body.jobs[0]?.kind, 'openapi');
});

test.serial('a duplicate is 409 naming the library; force=true replaces it', async (t) => {
  const dup = await upload(PETSTORE);
  t.is(dup.status, 409);
  t.is(dup.body.error, 'duplicate_repo');
  t.regex(dup.body.message, /\/openapi\/tiny-pets/);
  const changed = PETSTORE.replace('Create a pet', 'Adopt a pet');
  const forced = await upload(changed, { force: 'true' });
  t.is(forced.status, 200, JSON.stringify(forced.body));
  const ctx = await app.request.get('/v2/context').query({ libraryId: '/openapi/tiny-pets', query: 'adopt a pet', type: 'json' });
  t.regex(ctx.body.snippets[0].title, /Adopt a pet/);
  t.false(
    ctx.body.snippets.some((s: { title: string }) => /Create a pet/.test(s.title)),
    'the old generation is gone',
  );
});

test.serial('bad input is refused with validation_error and writes nothing', async (t) => {
  const cases: [string, ReturnType<typeof upload>, RegExp][] = [
    ['force must be true/false', upload(PETSTORE, { force: 'yes' }), /force/],
    ['not OpenAPI', upload('{"hello": "world"}', { libraryTitle: 'Nope One' }), /openapi|swagger/i],
    ['not UTF-8', upload(Buffer.from([0xff, 0xfe, 0x00, 0x41, 0xc3, 0x28]), { libraryTitle: 'Nope Two' }), /UTF-8/i],
    ['YAML bomb', upload(bomb(), { libraryTitle: 'Nope Three' }, 'bomb.yaml'), /alias|expand|large|bomb/i],
    ['deep nesting', upload('['.repeat(10_000) + ']'.repeat(10_000), { libraryTitle: 'Nope Four' }), /deep|nest/i],
    [
      'external $ref',
      upload(
        PETSTORE.replace('"responses": { "200"', '"x": 1, "responses": { "200"')
          .replace('{"description":"ok"}', '{"$ref":"https://evil.example/x.json"}')
          .replace('"ok"}', '"ok", "content": {"application/json": {"schema": {"$ref": "other.yaml#/A"}}}}'),
        { libraryTitle: 'Nope Five' },
      ),
      /external|other\.yaml/i,
    ],
  ];
  for (const [name, pending, pattern] of cases) {
    const started = Date.now();
    const res = await pending;
    t.is(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
    t.is(res.body.error, 'validation_error', name);
    t.regex(res.body.message, pattern, name);
    t.true(Date.now() - started < 5000, `${name} answered promptly`);
  }
  const missing = await app.request.post('/v2/add/openapi-upload').set('authorization', `Bearer ${key}`).field('libraryTitle', 'x');
  t.is(missing.status, 400);
  t.regex(missing.body.message, /openapiFile/);
  for (const id of ['nope-one', 'nope-two', 'nope-three', 'nope-four', 'nope-five'])
    t.is(await app.services.libraries.get(`/openapi/${id}`, { fresh: true }), null);
});

test.serial('an upload over 10 MB is refused while streaming with 413 payload_too_large', async (t) => {
  const big = Buffer.alloc(11 * 1024 * 1024, 0x20);
  const res = await upload(big, { libraryTitle: 'Too Big' });
  t.is(res.status, 413);
  t.is(res.body.error, 'payload_too_large');
  t.regex(res.body.message, /10 MB/);
});

test.serial('a caller without a team is refused with forbidden; anonymous with invalid_api_key', async (t) => {
  const member = await memberKey(app);
  const res = await upload(PETSTORE, { libraryTitle: 'Team Less' }, 'spec.json', member.key);
  t.is(res.status, 403);
  t.is(res.body.error, 'forbidden');
  t.regex(res.body.message, /team/);
  const anon = await app.request.post('/v2/add/openapi-upload').attach('openapiFile', Buffer.from(PETSTORE), 'spec.json');
  t.is(anon.status, 401);
  t.is(anon.body.error, 'invalid_api_key');
});

test.serial("a team's upload is private to the team unless an admin publishes it; another team's copy neither blocks nor shows", async (t) => {
  const teamA = await memberKey(app, { teamPlan: 'free' });
  const teamB = await memberKey(app, { teamPlan: 'free' });
  const doc = (what: string) => PETSTORE.replace('Tiny Pets', 'Team Pets').replace('List all pets', `List all ${what} pets`);
  const ask = (key?: string) => {
    const req = app.request.get('/v2/context').query({ libraryId: '/openapi/team-pets', query: 'list all pets', type: 'json' });
    return key ? req.set('authorization', `Bearer ${key}`) : req;
  };

  const a = await upload(doc('alpha'), { public: '' }, 'spec.json', teamA.key);
  t.is(a.status, 200, JSON.stringify(a.body));
  t.is(a.body.libraryName, '/openapi/team-pets');
  t.is((await ask()).status, 404, 'anonymous callers do not see a team upload');
  t.is((await ask()).body.error, 'library_not_found');
  t.regex(JSON.stringify((await ask(teamA.key)).body.snippets), /alpha/);

  const b = await upload(doc('bravo'), { public: 'false' }, 'spec.json', teamB.key);
  t.is(b.status, 200, `another team's copy does not block: ${JSON.stringify(b.body)}`);
  const fromB = JSON.stringify((await ask(teamB.key)).body.snippets);
  t.regex(fromB, /bravo/);
  t.notRegex(fromB, /alpha/, "team B's context answers from its own copy");
  t.notRegex(JSON.stringify((await ask(teamA.key)).body.snippets), /bravo/);

  const again = await upload(doc('alpha'), { public: '' }, 'spec.json', teamA.key);
  t.is(again.status, 409, 'a duplicate in the same team is still refused');
  t.is(again.body.error, 'duplicate_repo');

  const published = await upload(doc('alpha'), { public: 'true' }, 'spec.json', teamA.key);
  t.is(published.status, 403, 'only admins publish to every caller');
  t.is(published.body.error, 'forbidden');
  t.regex(published.body.message, /public/);

  const pub = await upload(doc('charlie'), { public: 'true' }, 'spec.json');
  t.is(pub.status, 200, `an admin publishes the same id: ${JSON.stringify(pub.body)}`);
  t.regex(JSON.stringify((await ask()).body.snippets), /charlie/);
  t.regex(JSON.stringify((await ask(teamA.key)).body.snippets), /alpha/, "a team's own copy comes first for the team");

  const listed = await app.request.get('/v2/libraries').set('authorization', `Bearer ${key}`);
  const copies = (listed.body.libraries as Array<{ id: string; private: boolean; teamId: string | null }>).filter((l) => l.id === '/openapi/team-pets');
  t.deepEqual(copies.map((c) => c.teamId ?? 'public').sort(), [teamA.teamId, teamB.teamId, 'public'].sort(), 'admins see every copy with its team');
});

test.serial('info.version becomes a tag only in a form a client can address', async (t) => {
  for (const [version, tag] of [
    ['../../1', '1'],
    ['1.0 (beta)', '1.0-beta'],
    ['..', undefined],
  ] as const) {
    const title = `Version ${tag ?? 'none'} Pets`;
    const res = await upload(PETSTORE.replace('Tiny Pets', title).replace('"1.2.3"', JSON.stringify(version)));
    t.is(res.status, 200, JSON.stringify(res.body));
    const lib = await app.request.get(`/v2/libraries${res.body.libraryName}`).set('authorization', `Bearer ${key}`);
    t.deepEqual(lib.body.versions, tag ? [tag] : [], version);
    t.deepEqual(lib.body.builds[0].tags, tag ? [tag] : [], version);
    if (tag) {
      const ctx = await app.request.get('/v2/context').query({ libraryId: `${res.body.libraryName}/${tag}`, query: 'list pets', type: 'json' });
      t.is(ctx.status, 200, `the tag addresses the library: ${JSON.stringify(ctx.body)}`);
    }
  }
});

maybe('every corpus document uploads and answers a query about one of its operations first', async (t) => {
  const files = fs.readdirSync(CORPUS).filter((f) => /\.(json|ya?ml)$/.test(f) && !f.startsWith('openai'));
  for (const f of files) {
    const res = await upload(fs.readFileSync(path.join(CORPUS, f)), { libraryTitle: `corpus ${f}` }, f);
    t.is(res.status, 200, `${f}: ${JSON.stringify(res.body)}`);
  }
  const petstore = await app.request.get('/v2/context').query({ libraryId: '/openapi/corpus-v3-0-petstore-json', query: 'list all pets', type: 'json' });
  t.regex(petstore.body.snippets[0].title, /^GET \/pets/);
});

maybe('the 3.4 MB OpenAI document uploads; "stream a chat completion" finds POST /chat/completions first', async (t) => {
  const started = Date.now();
  const res = await upload(fs.readFileSync(path.join(CORPUS, 'openai-openapi.json')), {}, 'openai-openapi.json');
  const ms = Date.now() - started;
  t.is(res.status, 200, JSON.stringify(res.body));
  t.log(`OpenAI document uploaded and indexed in ${ms} ms`);
  const ctx = await app.request.get('/v2/context').query({ libraryId: res.body.libraryName, query: 'stream a chat completion', type: 'json' });
  t.is(ctx.status, 200);
  t.regex(ctx.body.snippets[0].title, /^POST \/chat\/completions/);
});

function bomb(): string {
  const lines = ['openapi: 3.0.0', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = 'bcdefghij'.split('');
  let prev = 'a';
  for (const n of names) {
    lines.push(`${n}: &${n} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`);
    prev = n;
  }
  lines.push('info: {title: bomb, version: "1"}', 'paths: {}');
  return lines.join('\n');
}
