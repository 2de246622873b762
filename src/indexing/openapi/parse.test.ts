import test from 'ava';
import { OpenApiError, type OpenApiErrorReason } from './errors';
import { parseOpenApiDocument } from './parse';
import { cpuMsAsync } from '../../util/cpu-time';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const minimal = { openapi: '3.0.3', info: { title: 'Mini', version: '1.0' }, paths: {} };

async function refusal(input: Buffer | string, options = {}): Promise<OpenApiError> {
  const error = await parseOpenApiDocument(Buffer.isBuffer(input) ? input : Buffer.from(input), options).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof OpenApiError)) throw new Error(`expected an OpenApiError, got ${String(error)}`);
  return error;
}

async function refusedWithin(
  t: { is: (a: unknown, b: unknown) => void; true: (v: boolean, m?: string) => void },
  input: Buffer | string,
  reason: OpenApiErrorReason,
  ms: number,
): Promise<OpenApiError> {
  const { value: error, ms: elapsed } = await cpuMsAsync(() => refusal(input));
  t.is(error.reason, reason);
  t.true(elapsed < ms, `took ${elapsed.toFixed(0)} ms`);
  return error;
}

test('a minimal OpenAPI 3.0 JSON document is accepted with its identity', async (t) => {
  const parsed = await parseOpenApiDocument(json({ ...minimal, info: { ...minimal.info, description: 'Tiny' } }));
  t.is(parsed.format, 'json');
  t.is(parsed.specVersion, '3.0');
  t.is(parsed.title, 'Mini');
  t.is(parsed.version, '1.0');
  t.is(parsed.description, 'Tiny');
});

test('YAML is detected from the content, a BOM is ignored, and dates stay strings', async (t) => {
  const yaml = '\uFEFFopenapi: 3.0.3\ninfo:\n  title: Y\n  version: 2024-01-01\npaths: {}\n';
  const parsed = await parseOpenApiDocument(Buffer.from(yaml));
  t.is(parsed.format, 'yaml');
  t.is(parsed.specVersion, '3.0');
  t.is(parsed.version, '2024-01-01');
  t.false(parsed.rawText.startsWith('\uFEFF'));
});

test('Swagger 2.0 is accepted', async (t) => {
  const parsed = await parseOpenApiDocument(json({ swagger: '2.0', info: { title: 'S', version: '1' }, paths: {} }));
  t.is(parsed.specVersion, '2.0');
});

test('a file over the size limit is refused before anything else', async (t) => {
  const error = await refusal(Buffer.alloc(11 * 1024 * 1024, 0xff));
  t.is(error.reason, 'too_large');
  t.regex(error.message, /11\.0 MB.*10\.0 MB/);
  t.is((await refusal(json(minimal), { maxBytes: 10 })).reason, 'too_large');
});

test('invalid UTF-8 is refused', async (t) => {
  const error = await refusal(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
  t.is(error.reason, 'not_utf8');
  t.regex(error.message, /UTF-8/);
});

test('malformed JSON and YAML are syntax errors with a position', async (t) => {
  const broken = await refusal('{\n  "openapi": "3.0.0",\n  "info": }');
  t.is(broken.reason, 'syntax');
  t.regex(broken.message, /JSON/);
  const yaml = await refusal('openapi: 3.0.0\ninfo: [1, 2\n');
  t.is(yaml.reason, 'syntax');
  t.regex(yaml.message, /line \d+/);
});

test.serial('a YAML billion-laughs bomb is refused within a second', async (t) => {
  let bomb = 'openapi: 3.0.0\nl0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n';
  for (let i = 1; i <= 9; i++)
    bomb += `l${i}: &l${i} [${Array(9)
      .fill(`*l${i - 1}`)
      .join(', ')}]\n`;
  const error = await refusedWithin(t, bomb, 'bomb', 1000);
  t.regex(error.message, /alias/);
});

test.serial('an alias repeating one long string is a bomb too', async (t) => {
  const big = 'x'.repeat(100_000);
  const yaml = `openapi: 3.0.0\ns: &s "${big}"\nl: [${Array(5000).fill('*s').join(', ')}]\n`;
  await refusedWithin(t, yaml, 'bomb', 1000);
});

test.serial('10,000 levels of JSON nesting are refused within a second', async (t) => {
  await refusedWithin(t, '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000), 'too_deep', 1000);
  await refusedWithin(t, '{"a":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}', 'too_deep', 1000);
});

test.serial('10,000 levels of YAML nesting are refused within a second', async (t) => {
  await refusedWithin(t, 'a: ' + '['.repeat(10_000) + ']'.repeat(10_000), 'too_deep', 1000);
  await refusedWithin(t, 'a:\n' + '- '.repeat(10_000) + 'x\n', 'too_deep', 1000);
  await refusedWithin(t, 'a: ' + '{b: '.repeat(10_000) + '1' + '}'.repeat(10_000), 'too_deep', 1000);
});

test.serial('depth built from chained YAML aliases is refused', async (t) => {
  let yaml = 'openapi: 3.0.0\na0: &a0 [1]\n';
  for (let i = 1; i <= 300; i++) yaml += `a${i}: &a${i} [*a${i - 1}]\n`;
  await refusedWithin(t, yaml, 'too_deep', 1000);
});

test('nesting up to the limit is fine', async (t) => {
  const nested = '['.repeat(150) + ']'.repeat(150);
  const parsed = await parseOpenApiDocument(Buffer.from(JSON.stringify({ ...minimal, 'x-deep': 0 }).replace('0}', `${nested}}`)));
  t.is(parsed.title, 'Mini');
});

test('a recursive YAML anchor is refused', async (t) => {
  const error = await refusal('openapi: 3.0.0\na: &a\n  b: *a\n');
  t.is(error.reason, 'invalid');
  t.regex(error.message, /recursive anchor/);
});

test('a huge key is refused', async (t) => {
  const error = await refusal(json({ ...minimal, ['k'.repeat(20_000)]: 1 }));
  t.is(error.reason, 'invalid');
  t.regex(error.message, /20000 characters/);
});

test('documents that are not OpenAPI are refused as not_openapi', async (t) => {
  for (const input of ['{"name": "package", "version": "1.0.0"}', '[1, 2, 3]', '', '   \n', 'just text', '{"openapi": "4.0.0"}', '{"swagger": "1.2"}']) {
    const error = await refusal(input);
    t.is(error.reason, 'not_openapi', input);
    t.regex(error.message, /OpenAPI 3\.0\/3\.1 or Swagger 2\.0/);
  }
});

test('an unquoted YAML version number gets a hint to quote it', async (t) => {
  const error = await refusal('swagger: 2.0\ninfo: {title: x, version: "1"}\npaths: {}\n');
  t.is(error.reason, 'invalid');
  t.regex(error.message, /"2\.0"/);
});

test('an invalid document lists its problems (at most five)', async (t) => {
  const noPaths = await refusal(json({ openapi: '3.0.3', info: { title: 'x' } }));
  t.is(noPaths.reason, 'invalid');
  t.regex(noPaths.message, /paths/);
  t.regex(noPaths.message, /version/);
  t.is(noPaths.details.length, 2);

  const badOperation = await refusal(json({ ...minimal, paths: { '/a': { get: { parameters: [{ name: 'q' }], responses: 'bad' } } } }));
  t.is(badOperation.reason, 'invalid');
  t.regex(badOperation.message, /must be object/);

  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 20; i++) paths[`/p${i}`] = { get: {} };
  const many = await refusal(json({ ...minimal, paths }));
  t.true(many.details.length <= 6);
});

test('a missing internal $ref is reported as invalid', async (t) => {
  const doc = { ...minimal, paths: { '/a': { get: { responses: { 200: { $ref: '#/components/responses/Nope' } } } } } };
  const error = await refusal(json(doc));
  t.is(error.reason, 'invalid');
  t.regex(error.message, /#\/components\/responses\/Nope/);
});

test('the light structural check reports problems when the full validator is skipped', async (t) => {
  const doc = { openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: { '/a': { get: { parameters: [{ in: 'query' }] } }, b: {} } };
  const error = await refusal(json(doc), { maxValidatorNodes: 0 });
  t.is(error.reason, 'invalid');
  t.regex(error.message, /paths\["\/a"\]\.get\.parameters\[0\] needs a name/);
  t.regex(error.message, /paths\["\/a"\]\.get\.responses is missing/);
  t.regex(error.message, /paths\.b: path keys must start with "\/"/);
  await t.notThrowsAsync(parseOpenApiDocument(json(minimal), { maxValidatorNodes: 0 }));
});

test('external $refs are refused, naming them', async (t) => {
  const doc = {
    ...minimal,
    paths: {
      '/a': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: './schemas/pet.yaml#/Pet' } } } } } } },
      '/b': { get: { responses: { 200: { $ref: 'https://example.com/responses.json#/Ok' } } } },
    },
  };
  const error = await refusal(json(doc));
  t.is(error.reason, 'external_ref');
  t.regex(error.message, /\.\/schemas\/pet\.yaml#\/Pet/);
  t.regex(error.message, /https:\/\/example\.com\/responses\.json#\/Ok/);
  t.deepEqual(error.details, ['./schemas/pet.yaml#/Pet', 'https://example.com/responses.json#/Ok']);
});

test.serial('circular internal $refs are accepted without hanging', async (t) => {
  const doc = {
    ...minimal,
    paths: {
      '/node': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } } } },
    },
    components: {
      schemas: {
        Node: {
          type: 'object',
          properties: { child: { $ref: '#/components/schemas/Node' }, list: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
        },
      },
    },
  };
  const { ms } = await cpuMsAsync(() => t.notThrowsAsync(parseOpenApiDocument(json(doc))));
  t.true(ms < 2000, `${ms.toFixed(0)} ms of CPU`);
});

test.serial('a $ref fan-out that expands exponentially skips the full validator and stays fast', async (t) => {
  const schemas: Record<string, unknown> = { S0: { type: 'string' } };
  for (let i = 1; i <= 40; i++)
    schemas[`S${i}`] = { type: 'object', properties: { a: { $ref: `#/components/schemas/S${i - 1}` }, b: { $ref: `#/components/schemas/S${i - 1}` } } };
  const doc = {
    ...minimal,
    paths: { '/x': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/S40' } } } } } } } },
    components: { schemas },
  };
  const { ms } = await cpuMsAsync(() => t.notThrowsAsync(parseOpenApiDocument(json(doc))));
  t.true(ms < 2000, `${ms.toFixed(0)} ms of CPU`);
});
