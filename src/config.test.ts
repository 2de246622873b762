import test from 'ava';
import { ConfigError, loadConfig } from './config';

const base = { ELASTICSEARCH_URL: 'http://127.0.0.1:9200', MONGODB_URI: 'mongodb://127.0.0.1:27017/', SHELFMARK_SECRET: 'x'.repeat(32) };

test('defaults apply', (t) => {
  const c = loadConfig(base);
  t.is(c.port, 3000);
  t.is(c.indexPrefix, 'shelfmark');
  t.is(c.gitHosts.github, 'https://github.com');
  t.true(Object.isFrozen(c));
});

test('a bad value stops start-up naming the variable', (t) => {
  const e = t.throws(() => loadConfig({ ...base, PORT: 'eighty' }), { instanceOf: ConfigError });
  t.regex(e.message, /PORT/);
  const e2 = t.throws(() => loadConfig({ ...base, MONGODB_URI: 'http://x' }), { instanceOf: ConfigError });
  t.regex(e2.message, /MONGODB_URI/);
  const e3 = t.throws(() => loadConfig({ ...base, SHELFMARK_INDEX_PREFIX: 'Bad Prefix' }), { instanceOf: ConfigError });
  t.regex(e3.message, /SHELFMARK_INDEX_PREFIX/);
});

test('missing store URLs say how to provision them', (t) => {
  const e = t.throws(() => loadConfig({ SHELFMARK_SECRET: 'x'.repeat(32), SHELFMARK_DATA_DIR: '/nonexistent-shelfmark' }), { instanceOf: ConfigError });
  t.regex(e.message, /ELASTICSEARCH_URL|MONGODB_URI/);
  t.regex(e.message, /services -- up/);
});

test('lists are split on commas', (t) => {
  const c = loadConfig({ ...base, GIT_ALLOWED_URL_PREFIXES: 'http://a/, http://b/' });
  t.deepEqual(c.gitAllowedPrefixes, ['http://a/', 'http://b/']);
});
