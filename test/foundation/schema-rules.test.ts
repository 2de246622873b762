/**
 * The document says the rules the checks apply, where a schema can say them (issue 32): a
 * request the document allows is not refused for its shape, and one it refuses is refused by
 * the server too. Before, `GET /v2/context` documented neither `query` nor `topic` as needed,
 * the refresh `branch` and `docsRepoUrl` had no pattern, a website's `url` none, `versionRule`
 * was "anything", and header names were free — so schemathesis' valid requests were 400s.
 */
import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey } from '../helpers';

let app: TestApp;
let key: string;
type Schema = {
  $ref?: string;
  pattern?: string;
  format?: string;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  propertyNames?: Schema;
  additionalProperties?: Schema;
  required?: string[];
};
let doc: {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ name: string; required?: boolean; schema: Schema }>; requestBody?: { content: Record<string, { schema: Schema }> } }>
  >;
  components: { schemas: Record<string, Schema> };
};

test.before(async () => {
  app = await createTestApp({ WORKER_MODE: 'off', ADD_WAIT_SECONDS: '0', RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  key = await adminKey(app);
  doc = (await app.request.get('/v2/openapi.json')).body;
});
test.after.always(async () => {
  await app?.close();
});

const as = () => ({ authorization: `Bearer ${key}` });
const body = (path: string, method: string): Schema => {
  const schema = doc.paths[path][method].requestBody?.content['application/json'].schema ?? {};
  return schema.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
};
const matches = (pattern: string | undefined, value: string) => pattern !== undefined && new RegExp(pattern, 'u').test(value);

test("context: `query` is required (an older client's `topic` stands in for it)", async (t) => {
  const params = doc.paths['/v2/context'].get.parameters ?? [];
  const query = params.find((p) => p.name === 'query');
  t.true(query?.required);
  t.true(matches(query?.schema.pattern, 'how do I spin a widget'));
  t.false(matches(query?.schema.pattern, '   '));
  const topicOnly = await app.request.get('/v2/context').query({ libraryId: '/no/such', topic: 'spin' });
  t.is(topicOnly.status, 404, 'a topic is a question: not a 400');
  const neither = await app.request.get('/v2/context').query({ libraryId: '/no/such' });
  t.is(neither.status, 400);
  t.is(neither.body.field, 'query');
});

test('refresh: `branch` has the pattern the check uses', async (t) => {
  const branch = body('/v2/refresh', 'post').properties?.branch;
  for (const ok of ['v1.2.3', 'main', 'latest-fix', 'release_2+build']) t.true(matches(branch?.pattern, ok), ok);
  for (const bad of ['a b', '../x', '', 'latest', 'x'.repeat(101)]) t.false(matches(branch?.pattern, bad), bad);
  const allowed = await app.request.post('/v2/refresh').set(as()).send({ libraryName: '/no/such', branch: 'release_2+build' });
  t.is(allowed.status, 404, JSON.stringify(allowed.body));
  for (const bad of ['a b', 'latest']) {
    const res = await app.request.post('/v2/refresh').set(as()).send({ libraryName: '/no/such', branch: bad });
    t.is(res.status, 400, bad);
    t.is(res.body.field, 'branch');
  }
});

test('add repo: `docsRepoUrl` is documented as a URL of a scheme Git clones', async (t) => {
  const url = body('/v2/add/repo/{host}', 'post').properties?.docsRepoUrl;
  t.is(url?.format, 'uri');
  for (const ok of ['https://github.com/acme/widgets', 'ssh://git.example/acme/w.git', 'file:///srv/repos/w.git']) t.true(matches(url?.pattern, ok), ok);
  for (const bad of ['acme/widgets', 'https://user:pw@github.com/a/b', 'ftp://x/y']) t.false(matches(url?.pattern, bad), bad);
  const res = await app.request.post('/v2/add/repo/github').set(as()).send({ docsRepoUrl: 'acme/widgets' });
  t.is(res.status, 400);
  t.is(res.body.field, 'docsRepoUrl');
});

test('add website: `url` and header names are documented as checked', async (t) => {
  const schema = body('/v2/add/website', 'post');
  const url = schema.properties?.url;
  for (const ok of ['https://docs.example.com/guide/', 'http://127.0.0.1:8080/', 'https://bücher.example/x']) t.true(matches(url?.pattern, ok), ok);
  for (const bad of ['docs.example.com', 'ftp://docs.example.com/', 'https://u:p@docs.example.com/', 'https://h:99999/'])
    t.false(matches(url?.pattern, bad), bad);
  const names = schema.properties?.headers?.propertyNames?.pattern;
  t.true(matches(names, 'Authorization'));
  for (const bad of ['Host', 'content-length', 'bad name']) t.false(matches(names, bad), bad);
  const refused = await app.request
    .post('/v2/add/website')
    .set(as())
    .send({ url: 'https://docs.example.com/', headers: { Host: 'x' } });
  t.is(refused.status, 400);
  // Values: what HTTP (and the fetcher) takes; a Euro sign used to pass here and fail the crawl.
  const values = schema.properties?.headers?.additionalProperties?.pattern;
  t.true(matches(values, 'Bearer t0ken; café'));
  t.false(matches(values, 'caf€'));
  const badValue = await app.request
    .post('/v2/add/website')
    .set(as())
    .send({ url: 'https://docs.example.com/', headers: { 'X-Token': 'caf€' } });
  t.is(badValue.status, 400, JSON.stringify(badValue.body));
  t.regex(badValue.body.field ?? '', /^headers/);
  const accepted = await app.request.post('/v2/add/website').set(as()).send({ url: 'https://bücher.example/x' });
  t.is(accepted.status, 504, 'a URL the document allows is queued (no worker here), not refused');
});

test('PATCH: `versionRule` is documented as its forms, a semver range by pattern', async (t) => {
  const forms = body('/v2/libraries/{owner}/{repo}', 'patch').properties?.versionRule?.anyOf ?? [];
  t.is(forms.length, 4);
  const range = forms.find((f) => f.properties?.range)?.properties?.range;
  for (const ok of ['>=2 <4', '^1.2', '1.x || 3']) t.true(matches(range?.pattern, ok), ok);
  for (const bad of ['>>', 'one', '00.01']) t.false(matches(range?.pattern, bad), bad);
});
