/** readLlmsTxt against a real local site: llms-full.txt as one Markdown document, llms.txt followed to its pages. */
import test from 'ava';
import { HostAllowList } from '../../../net/address-policy';
import { createWebFetcher } from '../../../net/web-fetch';
import { startWebSite } from '../../../../test/web-site';
import { readLlmsTxt } from './llms-txt';

async function setup(t: { teardown: (f: () => Promise<void> | void) => void }, files: Record<string, string>) {
  const site = await startWebSite({ files });
  const fetcher = createWebFetcher({
    lookup: async (host) => [{ address: host === 'docs.test' ? '127.0.0.1' : '10.9.8.7', family: 4 }],
    allow: HostAllowList.parse(['docs.test']),
  });
  t.teardown(() => fetcher.close());
  t.teardown(() => site.close());
  return { site, fetcher, base: `http://docs.test:${site.port}` };
}

const FULL = '# Widgets\n\n> All of it.\n\n## Install\n\n```bash\nnpm i widgets\n```\n';

test('llms-full.txt is one Markdown document', async (t) => {
  const { fetcher, base } = await setup(t, { '/llms-full.txt': FULL });
  const r = await readLlmsTxt(`${base}/llms-full.txt`, { fetcher }, { delayMs: 0 });
  t.deepEqual(
    r.pages.map((p) => [p.path, p.text]),
    [['llms-full.md', FULL]],
  );
  t.deepEqual(r.skipped, []);
});

test('llms.txt is followed to its pages: .md twins first, the page itself otherwise; failures are reported', async (t) => {
  const { site, fetcher, base } = await setup(t, {
    '/llms.txt': `# Widgets\n\n> Index.\n\n## Docs\n\n- [Install](${'/docs/install.html'}): how\n- [API](/docs/api): the API\n- [Gone](/docs/gone.md)\n- [Inside](http://intranet.test/secret.md)\n`,
    '/docs/install.html': '<html><body><main><h1>Install</h1></main></body></html>',
    '/docs/install.html.md': '# Install\n\nnpm i widgets\n',
    '/docs/api.html': '<html><body><main><h1>API</h1><p>no twin</p></main></body></html>',
  });
  const r = await readLlmsTxt(`${base}/llms.txt`, { fetcher }, { delayMs: 0 });
  t.deepEqual(r.pages.map((p) => p.path).sort(), ['docs/api.html', 'docs/install.md', 'llms.md']);
  t.is(r.pages.find((p) => p.path === 'docs/install.md')?.text, '# Install\n\nnpm i widgets\n');
  t.deepEqual(r.skipped.map((s) => s.reason).sort(), ['blocked_address', 'status']);
  t.false(
    site.requests.some((q) => q.url === '/robots.txt'),
    'an llms.txt is an invitation: robots.txt is not consulted',
  );

  const again = await readLlmsTxt(`${base}/llms.txt`, { fetcher, previous: r.pages }, { delayMs: 0 });
  t.is(again.pages.length, 0);
  t.is(again.unchanged.length, 3);
});

test('a missing llms.txt is reported, not thrown', async (t) => {
  const { fetcher, base } = await setup(t, {});
  const r = await readLlmsTxt(`${base}/llms.txt`, { fetcher });
  t.deepEqual(
    r.skipped.map((s) => s.reason),
    ['status'],
  );
  await t.throwsAsync(readLlmsTxt('not a url', { fetcher }), { message: /http/ });
});
