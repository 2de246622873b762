import test from 'ava';
import type { ParsedSnippet } from '../types';
import { parseOpenApiDocument } from './parse';
import { openApiToSnippets } from './snippets';
import { cpuMsAsync } from '../../util/cpu-time';

async function snippetsOf(doc: unknown): Promise<ParsedSnippet[]> {
  const text = JSON.stringify(doc, null, 2);
  const parsed = await parseOpenApiDocument(Buffer.from(text));
  return openApiToSnippets(parsed, { sourceName: 'api.json', rawText: parsed.rawText });
}

const byTitle = (snippets: ParsedSnippet[], title: string): ParsedSnippet => {
  const found = snippets.find((s) => s.title === title);
  if (!found) throw new Error(`no snippet "${title}" among ${snippets.map((s) => s.title).join(' | ')}`);
  return found;
};

const ok = { 200: { description: 'OK' } };

const api = {
  openapi: '3.0.3',
  info: { title: 'Zoo', version: '2.1', description: 'Animals as a service.', contact: { name: 'Keepers' }, license: { name: 'MIT' } },
  servers: [{ url: '{scheme}://{region}.zoo.example/v2', variables: { scheme: { default: 'https' }, region: { default: 'eu', enum: ['eu', 'us'] } } }],
  security: [{ bearer: [] }],
  tags: [{ name: 'animals', description: 'Everything with fur or scales.' }],
  paths: {
    '/animals': {
      get: {
        tags: ['animals'],
        summary: 'List animals',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer' }, description: 'How many.' },
          { name: 'species', in: 'query', required: true, schema: { type: 'string', enum: ['cat', 'dog'] } },
        ],
        responses: {
          200: { description: 'The animals', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Animal' } } } } },
        },
      },
      post: {
        tags: ['animals'],
        operationId: 'createAnimal',
        summary: 'Creates an animal.\nIt will be fed daily and given a name if it has none.',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Animal' }, examples: { lion: { value: { name: 'Leo', species: 'cat' } } } } },
        },
        responses: { 201: { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Animal' } } } } },
      },
    },
    '/animals/{animalId}': {
      parameters: [{ name: 'animalId', in: 'path', required: true, schema: { type: 'string' } }],
      delete: { security: [{ key: [] }], responses: { 204: { description: 'Gone' } } },
      patch: { security: [{ query: [] }], responses: ok },
      put: { security: [{ basic: [] }], responses: ok },
      head: { security: [{ oauth: [] }], responses: ok },
      options: { security: [{}], responses: ok },
    },
  },
  components: {
    schemas: {
      Animal: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, species: { type: 'string' }, born: { type: 'string', format: 'date' } },
      },
    },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      query: { type: 'apiKey', in: 'query', name: 'api_key' },
      basic: { type: 'http', scheme: 'basic' },
      oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://zoo.example/token', scopes: { 'animals:read': 'Read animals' } } } },
    },
  },
};

test('each operation is a bash code snippet titled METHOD /path — label', async (t) => {
  const snippets = await snippetsOf(api);
  const code = snippets.filter((s) => s.kind === 'code');
  t.deepEqual(
    code.map((s) => s.title),
    [
      'GET /animals — List animals',
      'POST /animals — Create animal',
      'PUT /animals/{animalId}',
      'DELETE /animals/{animalId}',
      'OPTIONS /animals/{animalId}',
      'HEAD /animals/{animalId}',
      'PATCH /animals/{animalId}',
    ],
  );
  for (const s of code) {
    t.is(s.language, 'bash');
    t.true(s.code.startsWith('curl '));
    t.is(s.path, 'api.json');
    t.is(s.pageTitle, 'Zoo');
    t.is(s.content, '');
  }
  t.deepEqual(byTitle(snippets, 'GET /animals — List animals').breadcrumb, ['Zoo', 'animals', 'GET /animals — List animals']);
  t.deepEqual(byTitle(snippets, 'PUT /animals/{animalId}').breadcrumb, ['Zoo', 'Operations', 'PUT /animals/{animalId}']);
});

test('the curl example uses the server with its variables, auth, required query and the body example', async (t) => {
  const snippets = await snippetsOf(api);
  const list = byTitle(snippets, 'GET /animals — List animals');
  t.regex(list.code, /^curl "https:\/\/eu\.zoo\.example\/v2\/animals\?species=cat" \\\n  -H "Authorization: Bearer \$TOKEN"/);
  t.regex(list.code, /# Response 200 \(application\/json\)\n# \[\n#   {\n#     "name": "string"/);
  const create = byTitle(snippets, 'POST /animals — Create animal');
  t.regex(create.code, /-X POST/);
  t.regex(create.code, /-H "Content-Type: application\/json" \\\n  -d '{\n    "name": "Leo",\n    "species": "cat"\n  }'/);
  t.regex(create.code, /# Response 201/);
});

test('each kind of security scheme shows up in curl', async (t) => {
  const snippets = await snippetsOf(api);
  t.regex(byTitle(snippets, 'DELETE /animals/{animalId}').code, /-H "X-Api-Key: \$API_KEY"/);
  t.regex(byTitle(snippets, 'PATCH /animals/{animalId}').code, /\/animals\/{animalId}\?api_key=\$API_KEY"/);
  t.regex(byTitle(snippets, 'PUT /animals/{animalId}').code, /-u "\$USERNAME:\$PASSWORD"/);
  t.regex(byTitle(snippets, 'HEAD /animals/{animalId}').code, /curl --head .*\n  -H "Authorization: Bearer \$TOKEN"/);
  t.notRegex(byTitle(snippets, 'OPTIONS /animals/{animalId}').code, /TOKEN|API_KEY/);
  t.regex(byTitle(snippets, 'DELETE /animals/{animalId}').code, /# Response 204: Gone/);
});

test('the description carries prose, operationId, parameters, body fields and statuses', async (t) => {
  const snippets = await snippetsOf(api);
  const list = byTitle(snippets, 'GET /animals — List animals').description;
  t.regex(list, /Parameters:\n- limit \(query, integer\): How many\.\n- species \(query, "cat" \| "dog", required\)/);
  t.regex(list, /Responses: 200 The animals \(application\/json\)/);
  const create = byTitle(snippets, 'POST /animals — Create animal').description;
  t.regex(create, /^Creates an animal\. It will be fed daily/);
  t.regex(create, /operationId: createAnimal/);
  t.regex(create, /Request body \(application\/json, required\): Animal\n- name \(string, required\)\n- species \(string\)\n- born \(string<date>\)/);
});

test('info snippets: overview, servers, one per security scheme, tags with their operations', async (t) => {
  const snippets = await snippetsOf(api);
  const info = snippets.filter((s) => s.kind === 'info');
  t.deepEqual(
    info.map((s) => s.title),
    [
      'Zoo overview',
      'Servers',
      'Authentication: bearer',
      'Authentication: key',
      'Authentication: query',
      'Authentication: basic',
      'Authentication: oauth',
      'Tag: animals',
    ],
  );
  for (const s of info) {
    t.is(s.description, '');
    t.is(s.code, '');
    t.true(s.content.length > 0);
    t.deepEqual(s.breadcrumb, ['Zoo', s.title]);
  }
  t.regex(
    byTitle(snippets, 'Zoo overview').content,
    /Zoo 2\.1 \(OpenAPI 3\.0\)\nAnimals as a service\.\nBase URL: https:\/\/eu\.zoo\.example\/v2\nContact: Keepers\nLicense: MIT/,
  );
  t.regex(byTitle(snippets, 'Servers').content, /{region}: default eu \(one of eu, us\)/);
  t.regex(byTitle(snippets, 'Authentication: bearer').content, /HTTP bearer \(JWT\)\.\nSend the header: Authorization: Bearer \$TOKEN/);
  t.regex(
    byTitle(snippets, 'Authentication: oauth').content,
    /clientCredentials: token URL https:\/\/zoo\.example\/token; scopes animals:read \(Read animals\)/,
  );
  t.regex(
    byTitle(snippets, 'Tag: animals').content,
    /Everything with fur or scales\.\nOperations \(2\):\n- GET \/animals — List animals\n- POST \/animals — Create animal/,
  );
});

test('snippets point at the line where their part of the source starts', async (t) => {
  const text = JSON.stringify(api, null, 2).split('\n');
  const snippets = await snippetsOf(api);
  t.is(text[byTitle(snippets, 'GET /animals — List animals').startLine - 1].trim(), '"get": {');
  t.is(text[byTitle(snippets, 'PATCH /animals/{animalId}').startLine - 1].trim(), '"patch": {');
  t.is(text[byTitle(snippets, 'Authentication: oauth').startLine - 1].trim(), '"oauth": {');
  const parsed = await parseOpenApiDocument(Buffer.from(JSON.stringify(api)));
  t.true(openApiToSnippets(parsed, { sourceName: 'x' }).every((s) => s.startLine === 1));
});

test('Swagger 2.0: host and basePath, body parameters, form uploads, apiKey definitions', async (t) => {
  const swagger = {
    swagger: '2.0',
    info: { title: 'Files', version: '1' },
    host: 'files.example',
    basePath: '/api/',
    schemes: ['http'],
    securityDefinitions: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } },
    security: [{ token: [] }],
    paths: {
      '/upload': {
        post: {
          consumes: ['multipart/form-data'],
          parameters: [
            { name: 'file', in: 'formData', type: 'file', required: true },
            { name: 'label', in: 'formData', type: 'string', default: 'misc' },
          ],
          responses: {
            200: { description: 'Stored', schema: { type: 'object', properties: { id: { type: 'string' } } }, examples: { 'application/json': { id: 'f-1' } } },
          },
        },
      },
      '/notes': {
        post: {
          summary: 'Add a note',
          parameters: [
            {
              name: 'note',
              in: 'body',
              required: true,
              schema: { type: 'object', required: ['text'], properties: { text: { type: 'string', example: 'Hello' } } },
            },
          ],
          responses: ok,
        },
      },
    },
  };
  const snippets = await snippetsOf(swagger);
  const upload = byTitle(snippets, 'POST /upload');
  t.regex(upload.code, /^curl -X POST "http:\/\/files\.example\/api\/upload" \\\n  -H "X-Token: \$API_KEY" \\\n  -F "file=@file\.bin"$/m);
  t.regex(upload.code, /# Response 200 \(application\/json\)\n# {\n#   "id": "f-1"\n# }/);
  t.regex(upload.description, /Request body \(multipart\/form-data, required\)\n- file \(file, required\)\n- label \(string\)/);
  t.regex(byTitle(snippets, 'POST /notes — Add a note').code, /-d '{\n    "text": "Hello"\n  }'/);
  t.regex(byTitle(snippets, 'Files overview').content, /Base URL: http:\/\/files\.example\/api\n/);
});

test('a long summary moves to the description; the title falls back to the operationId in words', async (t) => {
  const long = 'Creates a thing. '.repeat(10);
  const snippets = await snippetsOf({
    openapi: '3.1.0',
    info: { title: 'T', version: '1' },
    paths: { '/things': { post: { operationId: 'createThingV2', summary: long, responses: ok } } },
  });
  const thing = snippets.find((s) => s.kind === 'code');
  t.is(thing?.title, 'POST /things — Create thing V2');
  t.true(thing?.description.startsWith('Creates a thing. Creates a thing.'));
  t.regex(thing?.code ?? '', /^curl -X POST "https:\/\/api\.example\.com\/things"\n\n# Response 200: OK$/);
  t.regex(snippets[0].content, /the document declares no server/);
});

test('descriptions stay bounded however large the operation', async (t) => {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) properties[`field${i}`] = { type: 'string', description: 'word '.repeat(100) };
  const doc = {
    openapi: '3.0.3',
    info: { title: 'Big', version: '1' },
    paths: {
      '/big': {
        post: {
          description: 'text '.repeat(1000),
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties } } } },
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties } } } } },
        },
      },
    },
  };
  const big = (await snippetsOf(doc)).find((s) => s.kind === 'code');
  t.true((big?.description.length ?? 0) <= 4000);
  t.true((big?.code.length ?? 0) < 4000);
  t.regex(big?.description ?? '', /- field\d+ \(string\): word word.*\n- …and \d+ more\n\nResponses: 200 ok/);
});

test.serial('nested allOf fan-out and huge property lists stay fast', async (t) => {
  const schemas: Record<string, unknown> = { S0: { type: 'object', properties: { leaf: { type: 'string' } } } };
  for (let i = 1; i <= 30; i++) {
    schemas[`S${i}`] = {
      allOf: Array.from({ length: 8 }, () => ({ $ref: `#/components/schemas/S${i - 1}` })),
      properties: { [`p${i}`]: { $ref: `#/components/schemas/S${i - 1}` } },
    };
  }
  const wide: Record<string, unknown> = {};
  for (let i = 0; i < 20_000; i++) wide[`f${i}`] = { $ref: '#/components/schemas/S30' };
  schemas.Wide = { type: 'object', properties: wide };
  const operation = (schema: string) => ({
    requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
    responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } } },
  });
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 50; i++) paths[`/op${i}`] = { post: operation(i % 2 === 0 ? 'S30' : 'Wide') };
  const { value: snippets, ms: elapsed } = await cpuMsAsync(() =>
    snippetsOf({ openapi: '3.0.3', info: { title: 'Fan', version: '1' }, paths, components: { schemas } }),
  );
  t.is(snippets.filter((s) => s.kind === 'code').length, 50);
  // About 0.8 s of CPU (it took 15 s before the work budgets).
  t.true(elapsed < 5000, `took ${elapsed.toFixed(0)} ms`);
  t.true(snippets.every((s) => s.code.length < 6000 && s.description.length <= 4000));
});
