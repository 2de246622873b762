import test from 'ava';
import { addWebsiteBody, webLibraryId } from './add-web';

test('website and llms.txt library ids: host, then the path segments joined with _', (t) => {
  t.is(webLibraryId('websites', 'https://docs.example.com/'), '/websites/docs.example.com');
  t.is(webLibraryId('websites', 'https://docs.example.com/guide/intro/'), '/websites/docs.example.com_guide_intro');
  t.is(webLibraryId('websites', 'https://Docs.Example.com/guide/index.html?x=1#top'), '/websites/docs.example.com_guide');
  t.is(webLibraryId('websites', 'http://127.0.0.1:8080/docs/'), '/websites/127.0.0.1-8080_docs');
  t.is(webLibraryId('websites', 'https://example.com/a%20b/c.html'), '/websites/example.com_a-b_c');
  t.is(webLibraryId('llmstxt', 'https://svelte.dev/llms.txt'), '/llmstxt/svelte.dev');
  t.is(webLibraryId('llmstxt', 'https://example.com/docs/llms-full.txt'), '/llmstxt/example.com_docs');
  // Every id is one a client can address: two segments of the allowed characters.
  for (const id of [webLibraryId('websites', `https://example.com/${'x'.repeat(300)}`), webLibraryId('websites', 'https://[::1]:3000/')]) {
    t.regex(id, /^\/(websites|llmstxt)\/[A-Za-z0-9_.][A-Za-z0-9_.-]{0,99}$/, id);
  }
});

test('the website body: defaults left to the use case, limits and header rules checked', (t) => {
  t.true(addWebsiteBody.safeParse({ url: 'https://example.com/' }).success);
  t.false(addWebsiteBody.safeParse({ url: 'https://example.com/', maxPages: 5001 }).success);
  t.false(addWebsiteBody.safeParse({ url: 'https://example.com/', headers: { 'Bad Name': 'x' } }).success);
  t.false(addWebsiteBody.safeParse({ url: 'https://example.com/', headers: { Connection: 'close' } }).success);
  t.false(
    addWebsiteBody.safeParse({ url: 'https://example.com/', headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-${i}`, 'v'])) }).success,
  );
  t.true(addWebsiteBody.safeParse({ url: 'https://example.com/', headers: { Cookie: 'a=b', 'X-Token': 't' } }).success);
});
