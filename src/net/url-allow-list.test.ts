import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalizeUrl, UrlAllowList, UrlAllowListError } from './url-allow-list';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-allow-')));
fs.mkdirSync(path.join(tmp, 'allowed', 'repo.git'), { recursive: true });
fs.mkdirSync(path.join(tmp, 'secret', 'repo.git'), { recursive: true });
fs.mkdirSync(path.join(tmp, 'allowed-not', 'repo.git'), { recursive: true });
fs.symlinkSync(path.join(tmp, 'secret'), path.join(tmp, 'allowed', 'link'));
fs.symlinkSync(path.join(tmp, 'allowed'), path.join(tmp, 'alias'));
test.after.always(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('canonical form: lowercase scheme and host, explicit default ports, resolved dot segments', (t) => {
  t.like(canonicalizeUrl('HTTPS://Git.Example.COM/a/b/'), {
    scheme: 'https:',
    host: 'git.example.com',
    port: '443',
    segments: ['a', 'b'],
    href: 'https://git.example.com/a/b',
  });
  t.like(canonicalizeUrl('http://h:80/x'), { port: '80', href: 'http://h/x' });
  t.like(canonicalizeUrl('http://h:8080/a/./b/../c'), { port: '8080', segments: ['a', 'c'], href: 'http://h:8080/a/c' });
  t.like(canonicalizeUrl('http://h/a/%2e%2E/b/%2E/c'), { segments: ['b', 'c'] });
  t.like(canonicalizeUrl('http://h//a///b'), { segments: ['a', 'b'] });
  t.like(canonicalizeUrl('http://h/%7euser/%41%3a'), { segments: ['~user', 'A%3A'] }, 'unreserved escapes decoded, others uppercased');
  t.like(canonicalizeUrl('https://bücher.de/x'), { host: 'xn--bcher-kva.de' });
  t.like(canonicalizeUrl('ssh://GIT.Example.com/a/../b'), { host: 'git.example.com', port: '22', segments: ['b'] });
  t.like(canonicalizeUrl('git://2130706433/x'), { host: '127.0.0.1', port: '9418' }, 'IPv4 forms normalised for non-special schemes too');
  t.like(canonicalizeUrl('http://[0:0::1]:8080/x'), { host: '[::1]', port: '8080', href: 'http://[::1]:8080/x' });
  t.like(canonicalizeUrl('http://h/x?q=1#f'), { href: 'http://h/x' });
});

test('unsafe or ambiguous URLs have no canonical form', (t) => {
  for (const bad of [
    'not a url',
    '/relative/path',
    'https://user:pw@h/x',
    'https://user@h/x',
    'http://h/a%2Fb',
    'http://h/a%2f..%2fb',
    'http://h/a%5cb',
    'http://h/a%00b',
    'file://otherhost/etc',
  ]) {
    t.is(canonicalizeUrl(bad), undefined, bad);
  }
});

test('ports: an entry for port 1809 does not admit 18099; default ports are equal to explicit ones', (t) => {
  const list = UrlAllowList.parse(['http://127.0.0.1:1809/']);
  t.true(list.allows('http://127.0.0.1:1809/x/y.git'));
  t.false(list.allows('http://127.0.0.1:18099/x/y.git'));
  t.false(list.allows('http://127.0.0.1:180/x/y.git'));
  t.false(list.allows('http://127.0.0.1/x/y.git'));
  t.false(list.allows('https://127.0.0.1:1809/x'), 'the scheme is part of the origin');
  const https = UrlAllowList.parse(['https://git.example.com']);
  t.true(https.allows('https://git.example.com:443/a'));
  t.true(https.allows('HTTPS://GIT.EXAMPLE.COM/a'));
  t.false(https.allows('https://git.example.com:8443/a'));
  t.false(https.allows('https://git.example.com.evil.net/a'));
  t.false(https.allows('https://evil.net/git.example.com/a'));
});

test('paths match by whole segments; trailing slashes do not matter', (t) => {
  for (const entry of ['https://h/a/b', 'https://h/a/b/', 'https://h/a/b//']) {
    const list = UrlAllowList.parse([entry]);
    t.true(list.allows('https://h/a/b'), entry);
    t.true(list.allows('https://h/a/b/'), entry);
    t.true(list.allows('https://h/a/b/c.git'), entry);
    t.false(list.allows('https://h/a/bc'), entry);
    t.false(list.allows('https://h/a'), entry);
  }
});

test('dot segments and encoded dot segments cannot climb out of an entry', (t) => {
  const list = UrlAllowList.parse(['http://h/allowed/']);
  for (const bad of [
    'http://h/allowed/../secret/repo.git',
    'http://h/allowed/%2e%2e/secret',
    'http://h/allowed/%2E%2E/secret',
    'http://h/allowed/.%2e/secret',
    'http://h/allowed//../../secret',
    'http://h/allowed/x/../../secret',
    'http://h/allowed%2F..%2Fsecret',
  ]) {
    t.false(list.allows(bad), bad);
  }
  t.is(
    list.match('http://h/allowed/x/../repo.git')?.href,
    'http://h/allowed/repo.git',
    'a dot segment that stays inside is fine, and the canonical URL is what gets used',
  );
});

test('IPv6 literals compare canonically', (t) => {
  const list = UrlAllowList.parse(['http://[::1]:8080/']);
  t.true(list.allows('http://[0:0:0:0:0:0:0:1]:8080/r.git'));
  t.false(list.allows('http://[::2]:8080/r.git'));
  t.false(list.allows('http://[::1]:8081/r.git'));
  t.false(list.allows('http://127.0.0.1:8080/r.git'));
});

test('userinfo is never admitted, and entries with userinfo, queries or no scheme are refused', (t) => {
  const list = UrlAllowList.parse(['https://h/']);
  t.false(list.allows('https://x@h/r.git'));
  t.false(list.allows('https://h@evil.net/r.git'));
  for (const bad of ['https://u:p@h/', 'https://h/?a=1', 'h/path', '']) {
    t.throws(() => UrlAllowList.parse([bad]), { instanceOf: UrlAllowListError }, bad);
  }
});

test('file: paths are resolved on disk (dot segments, symlinks) on both sides; missing paths are refused', (t) => {
  const list = UrlAllowList.parse([`file://${tmp}/allowed/`]);
  t.is(list.match(`file://${tmp}/allowed/repo.git`)?.href, `file://${tmp}/allowed/repo.git`);
  t.false(list.allows(`file://${tmp}/allowed/../secret/repo.git`), 'the reproduced bypass');
  t.false(list.allows(`file://${tmp}/allowed/%2e%2e/secret/repo.git`));
  t.false(list.allows(`file://${tmp}/allowed/link/repo.git`), 'a symlink inside the allowed folder pointing out of it');
  t.false(list.allows(`file://${tmp}/allowed-not/repo.git`), 'a sibling whose name starts like the entry');
  t.false(list.allows(`file://${tmp}/allowed/missing.git`));
  t.is(list.match(`file://${tmp}/alias/repo.git`)?.href, `file://${tmp}/allowed/repo.git`, 'a symlink to the allowed folder resolves into it');
  const viaAlias = UrlAllowList.parse([`file://${tmp}/alias`]);
  t.true(viaAlias.allows(`file://${tmp}/allowed/repo.git`), 'the entry is resolved too');
  t.throws(() => UrlAllowList.parse([`file://${tmp}/nope`]), { instanceOf: UrlAllowListError });
});

test('lexical file comparison for URLs that do not name existing paths', (t) => {
  const list = UrlAllowList.parse(['file:///srv/mirror'], { lexicalFiles: true });
  t.true(list.allows('file:///srv/mirror/owner/repo/tree/v1'));
  t.false(list.allows('file:///srv/mirror/../etc/repo'));
  t.false(list.allows('file:///srv/mirrors/x'));
});

test('an empty list admits nothing', (t) => {
  t.false(UrlAllowList.parse([]).allows('https://github.com/a/b'));
});
