import test from 'ava';
import { createTestApp, type TestApp } from '../harness';
import { adminKey } from '../helpers';

// Issue 22 items 6 and 7: every malformed multipart body is a 400 validation_error with a
// clear message (never a 500), and a body over a limit is a 413 payload_too_large. The
// bodies are written by hand, byte for byte, as a hostile client would send them.
let app: TestApp;
let key: string;

const BOUNDARY = 'XbOuNdArYx';
const DOC = JSON.stringify({
  openapi: '3.0.0',
  info: { title: 'Raw Pets', version: '1.0.0' },
  paths: { '/pets': { get: { summary: 'List pets', responses: { '200': { description: 'ok' } } } } },
});

test.before(async () => {
  app = await createTestApp({ RATE_LIMIT_EXPENSIVE_PER_MINUTE: '1000' });
  key = await adminKey(app);
});
test.after.always(async () => {
  await app?.close();
});

/** A multipart body from raw parts (each: header lines and a body), closed unless `truncate`. */
function body(parts: Array<{ headers: string[]; content: string | Buffer }>, options: { truncate?: boolean } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\n${part.headers.join('\r\n')}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  if (!options.truncate) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const filePart = (name = 'openapiFile', content: string | Buffer = DOC) => ({
  headers: [`Content-Disposition: form-data; name="${name}"; filename="spec.json"`, 'Content-Type: application/json'],
  content,
});
const fieldPart = (name: string, value: string) => ({ headers: [`Content-Disposition: form-data; name="${name}"`], content: value });

function post(raw: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  return app.request.post('/v2/add/openapi-upload').set('authorization', `Bearer ${key}`).set('content-type', contentType).send(raw);
}

test.serial('malformed multipart bodies are 400 validation_error with a message saying what is wrong', async (t) => {
  const cases: Array<[string, Buffer, string | undefined, RegExp]> = [
    ['a field part with an empty name', body([fieldPart('', 'x'), filePart()]), undefined, /no field name/],
    ['a file part with an empty name', body([filePart('')]), undefined, /no field name/],
    ['a part without a name parameter', body([{ headers: ['Content-Disposition: form-data'], content: 'x' }, filePart()]), undefined, /no field name/],
    ['no boundary in the content type', body([filePart()]), 'multipart/form-data', /boundary/],
    ['an empty boundary', body([filePart()]), 'multipart/form-data; boundary=', /boundary|Content-Type/],
    [
      'a header line without a colon',
      body([{ headers: ['Content-Disposition form-data; name="openapiFile"; filename="a.json"'], content: DOC }]),
      undefined,
      /part header|openapiFile is required/,
    ],
    [
      'a header line of binary garbage',
      body([{ headers: ['\u0000\u0001\u0002: \u0003', `Content-Disposition: form-data; name="openapiFile"; filename="a.json"`], content: DOC }]),
      undefined,
      /part header/,
    ],
    [
      'headers that never end',
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="openapiFile"; filename="a.json"\r\n${'X-Pad: y\r\n'.repeat(3000)}`),
      undefined,
      /part header|cut short/,
    ],
    ['a body cut short inside the file', body([filePart()], { truncate: true }).subarray(0, 120), undefined, /cut short/],
    ['a body without its closing boundary', body([filePart()], { truncate: true }), undefined, /cut short/],
    ['a body that is not multipart at all', Buffer.from('{"openapi": "3.0.0"}'), undefined, /cut short|boundary/],
    ['a part without Content-Disposition', body([{ headers: ['Content-Type: application/json'], content: DOC }]), undefined, /openapiFile is required/],
    ['the file twice', body([filePart(), filePart()]), undefined, /only one file/i],
    ['a second file in another field', body([filePart(), filePart('other')]), undefined, /only one file/i],
    ['openapiFile as a text field', body([fieldPart('openapiFile', DOC)]), undefined, /must be sent as a file/],
    ['too many text fields', body([...Array.from({ length: 11 }, (_, i) => fieldPart(`f${i}`, 'x')), filePart()]), undefined, /too many text fields/],
    ['too many parts', body([...Array.from({ length: 13 }, () => ({ headers: ['X-Nothing: 1'], content: 'x' })), filePart()]), undefined, /too many parts/],
    ['a field sent twice', body([fieldPart('libraryTitle', 'a'), fieldPart('libraryTitle', 'b'), filePart()]), undefined, /libraryTitle/],
    ['public that is not true or false', body([fieldPart('public', 'yes'), filePart()]), undefined, /public/],
    ['multipart/mixed', body([filePart()]), `multipart/mixed; boundary=${BOUNDARY}`, /multipart\/form-data/],
  ];
  for (const [name, raw, contentType, pattern] of cases) {
    const res = await post(raw, contentType);
    t.is(res.status, 400, `${name}: ${res.status} ${JSON.stringify(res.body)}`);
    t.is(res.body.error, 'validation_error', name);
    t.regex(res.body.message ?? '', pattern, `${name}: ${res.body.message}`);
  }
  t.is(await app.services.libraries.get('/openapi/raw-pets', { fresh: true }), null, 'nothing was written');
});

test.serial('a well-formed hand-written body still uploads (the cases above fail for their fault alone)', async (t) => {
  const res = await post(body([fieldPart('public', 'true'), filePart()]));
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.body.libraryName, '/openapi/raw-pets');
});

test.serial('bodies over a limit are 413 payload_too_large: a file over 10 MB, a text field over 64 KB, JSON over 1 MB', async (t) => {
  const file = await post(body([filePart('openapiFile', Buffer.alloc(10 * 1024 * 1024 + 1, 0x20))]));
  t.is(file.status, 413, JSON.stringify(file.body));
  t.is(file.body.error, 'payload_too_large');
  t.regex(file.body.message, /openapiFile is larger than 10 MB/);

  const field = await post(body([fieldPart('description', 'd'.repeat(64 * 1024 + 1)), filePart()]));
  t.is(field.status, 413, JSON.stringify(field.body));
  t.is(field.body.error, 'payload_too_large');
  t.regex(field.body.message, /description is larger than 64 KB/);

  const json = await app.request
    .post('/v2/add/repo/github')
    .set('authorization', `Bearer ${key}`)
    .set('content-type', 'application/json')
    .send(JSON.stringify({ docsRepoUrl: 'https://github.com/a/b', pad: 'p'.repeat(1024 * 1024 + 10) }));
  t.is(json.status, 413, JSON.stringify(json.body));
  t.is(json.body.error, 'payload_too_large');
  t.regex(json.body.message, /larger than the limit \(1 MB\)/);
});
