import test from 'ava';
import { PassThrough } from 'node:stream';
import supertest from 'supertest';
import { testConfig, dropTestStores } from '../harness';
import { createLogger } from '../../src/logger';
import { createServices, openStores, portsOf, type Lifecycle, type StoreHandles } from '../../src/services';
import type { Ports } from '../../src/ports';
import { createApp } from '../../src/http/app';
import { bearer } from './fixtures';

// Built by hand (not createTestApp) to capture every log line at debug level.
let services: Ports;
let lifecycle: Lifecycle;
let handles: StoreHandles;
let request: ReturnType<typeof supertest>;
const logLines: string[] = [];
let key: string;
/** Connections are changed in a dashboard session (a key may only list them). */
let session: Record<string, string>;
let userId: string;
const TOKEN = 'ghp_SuperSecretHostingToken1234567890abcd';

test.before(async () => {
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => logLines.push(c.toString()));
  const config = testConfig({ LOG_LEVEL: 'debug' });
  const log = createLogger('debug', stream);
  handles = await openStores(config, log);
  const composition = await createServices(config, log, handles);
  ({ lifecycle } = composition);
  services = portsOf(composition);
  request = supertest(createApp(services, lifecycle).callback());
  const user = await services.users.create({ username: 'cred-user', password: 'password-123', role: 'member' });
  userId = user._id;
  key = (await services.keys.create(userId, 'k')).value;
  const res = await request.post('/v2/auth/login').send({ username: 'cred-user', password: 'password-123' });
  const cookies = (res.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]);
  const csrf = cookies.find((c) => c.startsWith('shelfmark_csrf='))?.split('=')[1] ?? '';
  session = { Cookie: cookies.join('; '), 'X-CSRF-Token': csrf };
});
test.after.always(async () => {
  if (services) {
    await dropTestStores({ es: handles.es, prefix: services.config.indexPrefix, mongo: handles.mongo });
    await lifecycle.close();
  }
});

test.serial('PUT stores the token encrypted at rest; GET shows only connected and the last 4', async (t) => {
  const put = await request.put('/v2/admin/credentials/github').set(session).send({ token: TOKEN });
  t.is(put.status, 200);
  t.deepEqual({ host: put.body.host, connected: put.body.connected, last4: put.body.last4 }, { host: 'github', connected: true, last4: 'abcd' });
  t.false(JSON.stringify(put.body).includes(TOKEN.slice(0, -4)));

  const raw = await handles.mongo.collection('credentials').findOne({ userId });
  t.truthy(raw);
  const rawText = JSON.stringify(raw);
  t.false(rawText.includes(TOKEN), 'the raw document does not hold the token');
  t.false(rawText.includes('SuperSecret'));
  t.regex(String(raw?.encryptedToken), /^v1\./);

  const list = await request.get('/v2/admin/credentials').set(bearer(key));
  t.is(list.status, 200);
  t.is(list.body.credentials.length, 1);
  t.deepEqual(Object.keys(list.body.credentials[0]).sort(), ['connected', 'createdAt', 'host', 'last4', 'updatedAt']);
  t.false(JSON.stringify(list.body).includes('SuperSecret'));
});

test.serial('tokenFor gives the git indexer the decrypted token; other users and hosts get none', async (t) => {
  t.is(await services.credentials.tokenFor(userId, 'github'), TOKEN);
  t.is(await services.credentials.tokenFor(userId, 'gitlab'), undefined);
  t.is(await services.credentials.tokenFor('usr_other', 'github'), undefined);
  // A sealed token moved to another record does not open there.
  const raw = await handles.mongo.collection('credentials').findOne({ userId });
  await handles.mongo
    .collection('credentials')
    .insertOne({ _id: 'usr_thief:github', userId: 'usr_thief', host: 'github', encryptedToken: raw?.encryptedToken, last4: '' } as never);
  t.is(await services.credentials.tokenFor('usr_thief', 'github'), undefined);
});

test.serial('replacing and deleting a connection', async (t) => {
  t.is((await request.put('/v2/admin/credentials/github').set(session).send({ token: 'short' })).body.last4, '', 'short tokens show nothing');
  t.is(await services.credentials.tokenFor(userId, 'github'), 'short');
  t.is((await request.delete('/v2/admin/credentials/github').set(session)).status, 200);
  t.is(await services.credentials.tokenFor(userId, 'github'), undefined);
  t.is((await request.delete('/v2/admin/credentials/github').set(session)).status, 404);
});

test('bad hosts and tokens are 400 validation_error', async (t) => {
  const badHost = await request.put('/v2/admin/credentials/svn').set(session).send({ token: 'x' });
  t.is(badHost.status, 400);
  t.is(badHost.body.error, 'validation_error');
  for (const body of [{}, { token: '' }, { token: 'has space' }, { token: 5 }]) {
    t.is((await request.put('/v2/admin/credentials/gitlab').set(session).send(body)).status, 400, JSON.stringify(body));
  }
  t.is((await request.get('/v2/admin/credentials')).status, 401);
});

test.after('tokens never reach the log', (t) => {
  t.true(logLines.length > 0);
  const all = logLines.join('');
  t.false(all.includes('SuperSecret'));
  t.false(all.includes(key.slice(4)));
});
