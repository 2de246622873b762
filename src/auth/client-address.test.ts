import test from 'ava';
import { clientAddress, normaliseAddress, trustedProxyMatcher } from './client-address';

test('without trusted proxies X-Forwarded-For is ignored', (t) => {
  const none = trustedProxyMatcher([]);
  t.is(clientAddress('::ffff:10.0.0.5', '1.2.3.4', none), '10.0.0.5');
  t.is(clientAddress('203.0.113.9', undefined, none), '203.0.113.9');
});

test('a trusted peer (exact or CIDR) lets X-Forwarded-For name the client', (t) => {
  const trusted = trustedProxyMatcher(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
  t.is(clientAddress('127.0.0.1', '198.51.100.7', trusted), '198.51.100.7');
  t.is(clientAddress('10.1.2.3', '198.51.100.7, 10.9.9.9', trusted), '198.51.100.7', 'trusted hops are skipped from the right');
  t.is(clientAddress('fd00::1', '2001:db8::5', trusted), '2001:db8::5');
  t.is(clientAddress('10.1.2.3', 'spoofed, 198.51.100.7', trusted), '198.51.100.7', 'the right-most untrusted hop wins over spoofed left entries');
  t.is(clientAddress('10.1.2.3', 'garbage', trusted), '10.1.2.3');
  t.is(clientAddress('192.0.2.1', '198.51.100.7', trusted), '192.0.2.1', 'an untrusted peer is the client');
});

test('bad TRUSTED_PROXIES entries are refused; addresses are normalised', (t) => {
  t.throws(() => trustedProxyMatcher(['not-an-ip']));
  t.throws(() => trustedProxyMatcher(['10.0.0.0/33']));
  t.is(normaliseAddress('::ffff:127.0.0.1'), '127.0.0.1');
  t.is(normaliseAddress('[::1]'), '::1');
});
