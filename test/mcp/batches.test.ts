/**
 * JSON-RPC batches over /mcp (issue 32): every tool call in a batch counts against the
 * caller's rate limit, as if sent alone — a batch of 100 `query-docs` calls used to count as
 * one request, 6,000 anonymous context computations a minute per address — and a batch holds
 * at most MAX_MCP_BATCH messages.
 */
import test from 'ava';
import { awaitFreshWindow, startMcpFixture, type McpFixture } from './fixture';
import { MAX_MCP_BATCH } from '../../src/mcp/http-route';

const ANON_LIMIT = 8;
let fx: McpFixture;

test.before(async () => {
  fx = await startMcpFixture({ RATE_LIMIT_ANON_PER_MINUTE: String(ANON_LIMIT) });
});

test.after.always(async () => {
  await fx?.close();
});

const queryDocs = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'query-docs', arguments: { libraryId: '/acme/widgets', query: 'create a widget', tokens: 300 } },
});

async function post(body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${fx.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

type ToolAnswer = { id: number; result?: { isError?: boolean; content: { text: string }[] } };
const refused = (a: ToolAnswer) => a.result?.isError === true && /Rate limit exceeded/.test(a.result.content[0]?.text ?? '');

test.serial('each tool call of a batch counts against the limit: a batch of the whole budget leaves nothing for the next call', async (t) => {
  await awaitFreshWindow(30_000);
  const batch = await post(Array.from({ length: ANON_LIMIT }, (_, i) => queryDocs(i + 1)));
  t.is(batch.status, 200, JSON.stringify(batch.json));
  const answers = batch.json as ToolAnswer[];
  t.is(answers.length, ANON_LIMIT);
  t.false(answers.some(refused), 'the budget covers the batch');
  t.true(answers.every((a) => /createWidget/.test(a.result?.content[0]?.text ?? '')));

  // Before, the batch counted once: seven more calls would have passed.
  const next = await post(queryDocs(99));
  t.true(refused(next.json as ToolAnswer), JSON.stringify(next.json));
});

test.serial(`a batch of more than ${MAX_MCP_BATCH} messages is refused as a JSON-RPC error`, async (t) => {
  const res = await post(Array.from({ length: MAX_MCP_BATCH + 1 }, (_, i) => queryDocs(i + 1)));
  t.is(res.status, 400);
  t.like(res.json as object, { jsonrpc: '2.0', id: null });
  t.regex((res.json as { error: { message: string } }).error.message, new RegExp(`at most ${MAX_MCP_BATCH}`));
});
