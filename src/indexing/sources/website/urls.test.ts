import test from 'ava';
import { documentPath, markdownAlternate, normalizeUrl, pageKey, ScopeRule } from './urls';

const n = (u: string) => normalizeUrl(u)?.href;

test('normalisation: fragment, tracking parameters, host case, default port dropped; content parameters kept and sorted', (t) => {
  t.is(n('HTTP://Docs.Example.COM:80/a/b.html?utm_source=x&b=2&gclid=1&a=1&ref=hn#sec'), 'http://docs.example.com/a/b.html?a=1&b=2');
  t.is(n('https://h:443/x?fbclid=1'), 'https://h/x');
  t.is(n('mailto:a@b'), undefined);
  t.is(n('javascript:alert(1)'), undefined);
  t.is(normalizeUrl('/rel', 'https://h/a/')?.href, 'https://h/rel');
});

test('page keys: trailing slashes and index.html name one page', (t) => {
  const k = (u: string) => pageKey(normalizeUrl(u) as URL);
  t.is(k('https://h/guide/'), k('https://h/guide'));
  t.is(k('https://h/guide/index.html'), k('https://h/guide'));
  t.not(k('https://h/api?v=1'), k('https://h/api?v=2'));
});

test('document paths carry the format and stay inside the library', (t) => {
  const start = new URL('https://h/docs/');
  const p = (u: string, f: 'md' | 'html' = 'html') => documentPath(new URL(u), start, f);
  t.is(p('https://h/'), 'index.html');
  t.is(p('https://h/guide/'), 'guide/index.html');
  t.is(p('https://h/guide/intro.html'), 'guide/intro.html');
  t.is(p('https://h/guide/intro', 'md'), 'guide/intro.md');
  t.is(p('https://h/guide/intro.html.md', 'md'), 'guide/intro.md');
  t.is(p('https://h/page.php?id=3'), 'page_id=3.html');
  t.is(p('https://other/x.html'), 'other/x.html');
});

test('.md twins follow the llms.txt convention', (t) => {
  const m = (u: string) => markdownAlternate(new URL(u))?.href;
  t.is(m('https://h/a/b'), 'https://h/a/b.md');
  t.is(m('https://h/a/b.html'), 'https://h/a/b.html.md');
  t.is(m('https://h/a/'), 'https://h/a/index.html.md');
  t.is(m('https://h/a.md'), undefined);
  t.is(m('https://h/a?x=1'), undefined);
});

test('scopes: page, subpages (by folder, whole segments), hostname; include/exclude globs', (t) => {
  const u = (s: string) => new URL(s);
  const sub = new ScopeRule(u('https://h/docs/guide/intro.html'), 'subpages', [], []);
  t.is(sub.refuse(u('https://h/docs/guide/other.html')), undefined);
  t.truthy(sub.refuse(u('https://h/docs/api.html')));
  const dir = new ScopeRule(u('https://h/docs'), 'subpages', [], []);
  t.is(dir.refuse(u('https://h/docs/')), undefined);
  t.is(dir.refuse(u('https://h/docs/x')), undefined);
  t.truthy(dir.refuse(u('https://h/docsx/y')));
  const host = new ScopeRule(u('https://h/'), 'hostname', ['/docs/**'], ['**/v1/**']);
  t.is(host.refuse(u('https://h/docs/a')), undefined);
  t.truthy(host.refuse(u('https://h/blog/a')));
  t.truthy(host.refuse(u('https://h/docs/v1/a')));
  t.truthy(host.refuse(u('https://g/docs/a')));
  const one = new ScopeRule(u('https://h/a/'), 'page', [], []);
  t.is(one.refuse(u('https://h/a')), undefined);
  t.truthy(one.refuse(u('https://h/a/b')));
});
