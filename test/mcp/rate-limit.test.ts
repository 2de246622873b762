/**
 * Rate limits over MCP: the same per-minute limits as the HTTP API, lower without a key.
 * A refused tool call is a tool result with `isError` (the model can tell the user); other
 * MCP messages over the limit get the API's 429. A key raises the limit on both transports.
 */
import test from 'ava';
import { awaitFreshWindow, connectHttp, connectStdio, startMcpFixture, textOf, type McpFixture } from './fixture';

const ANON_LIMIT = 5;
let fx: McpFixture;

test.before(async () => {
  fx = await startMcpFixture({ RATE_LIMIT_ANON_PER_MINUTE: String(ANON_LIMIT) });
});

test.after.always(async () => {
  await fx?.close();
});

const call = { name: 'query-docs', arguments: { libraryId: '/acme/widgets', query: 'create a widget', tokens: 500 } };

test.serial('without a key the anonymous limit applies; a key in SHELFMARK_API_KEY still passes', async (t) => {
  await awaitFreshWindow(40_000);
  const anonymous = await connectHttp(fx.url); // initialize + initialized: 2 requests
  const keyed = await connectHttp(fx.url, { SHELFMARK_API_KEY: fx.adminKey });
  try {
    for (let i = 3; i <= ANON_LIMIT; i++) {
      const ok = await anonymous.callTool(call);
      t.falsy(ok.isError, `request ${i}: ${textOf(ok)}`);
    }
    const refused = await anonymous.callTool(call);
    t.true(refused.isError);
    t.regex(textOf(refused), /^Rate limit exceeded: 5 requests per minute for anonymous use[\s\S]*Retry in \d+ s\.[\s\S]*Do not retry at once[\s\S]*API key/);

    // Not a tool call: the API's 429.
    const listed = await anonymous.listTools().then(
      () => undefined,
      (error: Error & { code?: number }) => error,
    );
    t.is(listed?.code, 429);
    t.regex(String(listed?.message), /rate_limit_exceeded/);

    const withKey = await keyed.callTool(call);
    t.falsy(withKey.isError, textOf(withKey));
    t.regex(textOf(withKey), /createWidget/);
  } finally {
    await anonymous.close();
    await keyed.close();
  }
});

test.serial('over stdio: the API 429 becomes the same tool error; --api-key raises the limit', async (t) => {
  // The anonymous budget of 127.0.0.1 for this minute was spent by the previous test.
  const anonymous = await connectStdio(fx.url);
  const keyed = await connectStdio(fx.url, { apiKey: fx.adminKey });
  try {
    const refused = await anonymous.client.callTool(call);
    t.true(refused.isError);
    t.regex(textOf(refused), /^Rate limit exceeded[\s\S]*Do not retry at once/);
    const withKey = await keyed.client.callTool(call);
    t.falsy(withKey.isError, textOf(withKey));
  } finally {
    await anonymous.client.close();
    await keyed.client.close();
  }
});
