import test from 'ava';
import { analyzeQuery, analyzeText, codeIntent, extractIdentifiers } from './analysis';
import { cpuMs } from '../util/cpu-time';

const text = (s: string): string => analyzeText(s).join(' ');

test('dotted member chains keep the whole, the shorter chains and the stemmed words', (t) => {
  t.is(text('ctx.cookies.set(name, value)'), 'ctx.cookies.set cookies.set ctx cooki set name valu');
  t.is(text('requests.exceptions.SSLError'), 'requests.exceptions.sslerror exceptions.sslerror request except ssl error');
});

test('camelCase, PascalCase and acronyms split into words, whole kept', (t) => {
  t.is(text('getServerSideProps'), 'getserversideprops get server side prop');
  t.is(text('XMLHttpRequest'), 'xmlhttprequest xml http request');
  t.is(text('HTTPError'), 'httperror http error');
  t.is(text('base64Encode'), 'base64encode base64 encod');
  t.is(text('schema.safeParse(data)'), 'schema.safeparse safeparse schema safe pars data');
});

test('snake_case, paths, flags and decorators', (t) => {
  t.is(text('SECRET_KEY'), 'secret_key secret kei');
  t.is(text('/path/to/file'), 'path/to/file path file');
  t.is(text('docs/api/context.md'), 'docs/api/context.md doc api context md');
  t.is(text('--version'), '--version version');
  t.is(text('-t foo'), '-t foo');
  t.is(text('@app.route("/")'), 'app.route app rout');
  t.is(text('@decorator'), 'decor');
});

test('plain words are lowercased, stemmed and stop words dropped', (t) => {
  t.is(text('The Cookies are running configurations'), 'cooki run configur');
  t.is(text("koa's built-in handler doesn't retry"), 'koa built-in built handler retri');
  t.deepEqual(analyzeText('how do I do it?'), []);
});

test('programming-significant short words survive', (t) => {
  t.is(text('not new get set use return default type id'), 'not new get set us return default type id');
});

test('a stop word written as code is a keyword: template blocks and members keep it, prose does not', (t) => {
  // Svelte's and Handlebars' blocks, and a promise's member: the same words on both sides of the index.
  t.is(text('{#each items as item} … {:else} … {/each}'), 'each item item els each');
  t.is(text('{#if open} {@html raw} {{#with user}}'), 'if open html raw with user');
  t.is(text('fetch(url).then(render)'), 'fetch url then render');
  t.deepEqual(analyzeQuery('#each').terms, ['each']);
  t.deepEqual(analyzeQuery('{#if} blocks').terms, ['if', 'block']);
  // Template tags (Jinja, Django, Liquid): the word after `{%` is the tag's keyword.
  t.is(text('{% for user in users %}{{ user }}{%- endfor %} {%+ if x %}'), 'for user user user endfor if x');
  t.deepEqual(analyzeQuery('{% for %} loop').terms, ['for', 'loop']);
  t.deepEqual(analyzeQuery('{% with %}').terms, ['with']);
  t.is(text('100% for sure'), '100 sure', 'a percent sign alone opens nothing');
  // As function words they carry no topic, and two sigils or a capital are not a keyword.
  t.is(text('for each item, if any, then this'), 'item');
  t.is(text('see ./this and .NET'), 'see net');
});

test('numbers and versions', (t) => {
  t.is(text('flask 3.1.3 returns 413'), 'flask 3.1.3 return 413');
  t.is(text('http2 utf8'), 'http2 utf8');
});

test('overlong tokens (minified code, base64) are ignored', (t) => {
  t.deepEqual(analyzeText(`data ${'A'.repeat(200)} end`), ['data', 'end']);
});

test('extractIdentifiers: compound forms only, or every word for code', (t) => {
  t.deepEqual(extractIdentifiers('Call ctx.cookies.set() with httpOnly', false), ['ctx.cookies.set', 'cookies.set', 'httponly']);
  t.deepEqual(extractIdentifiers('Model.find().lean()', true), ['model.find', 'model', 'find', 'lean']);
});

test('analyzeQuery: terms, identifiers, expansions', (t) => {
  const q = analyzeQuery('how do I delete a cookie with ctx.cookies.set()?');
  t.deepEqual(q.terms, ['delet', 'cooki', 'ctx.cookies.set', 'cookies.set', 'ctx', 'set']);
  t.deepEqual(q.identifiers, ['ctx.cookies.set', 'cookies.set', 'set']);
  t.deepEqual(q.expansions, ['remov', 'destroi', 'unset']);
  t.true(q.wantsCode > 0.7);
});

test('analyzeQuery: quoted segments become exact phrases or identifiers', (t) => {
  const q = analyzeQuery('error \'required_error\' does not exist in "type of field" after upgrading');
  t.deepEqual(q.exactPhrases, [['type', 'field']]);
  t.deepEqual(q.phrases[0], ['type', 'field']);
  t.true(q.identifiers.includes('required_error'));
  t.true(q.expansions.includes('except'));
  const back = analyzeQuery("ctx.redirect('back') no longer works");
  t.true(back.identifiers.includes('back'));
  t.true(back.identifiers.includes('ctx.redirect'));
});

test('analyzeQuery: clauses become proximity phrases', (t) => {
  const q = analyzeQuery('koa vs express: why no router, body parser or bundled middleware');
  t.deepEqual(q.phrases, [
    ['koa', 'express'],
    ['no', 'router'],
    ['bodi', 'parser', 'bundl', 'middlewar'],
  ]);
  t.deepEqual(q.exactPhrases, []);
});

test('wantsCode: code questions high, concept questions low', (t) => {
  t.true(analyzeQuery('how do I set a signed cookie').wantsCode >= 0.7);
  t.true(analyzeQuery('example of uploading a file with requests.post').wantsCode >= 0.7);
  t.true(analyzeQuery('serve a public folder under /static').wantsCode >= 0.6);
  t.true(analyzeQuery('why does koa not bundle middleware').wantsCode <= 0.3);
  t.true(analyzeQuery('what is the difference between g and session').wantsCode <= 0.3);
  t.true(analyzeQuery('express 5 vs 4 error handling').wantsCode < 0.5);
  for (const q of ['', 'x', 'why why why what is the difference vs versus explain']) {
    const w = codeIntent(q, 0);
    t.true(w >= 0 && w <= 1);
  }
});

test('analyzeText handles 1 MB of documentation in under 300 ms', (t) => {
  const page = [
    '## Setting cookies with ctx.cookies.set()',
    'Koa uses the [cookies](https://github.com/pillarjs/cookies) module, where options are simply passed.',
    '```js',
    "app.use(async (ctx, next) => {\n  ctx.cookies.set('lastVisit', Date.now(), { signed: true, httpOnly: true, sameSite: 'lax' });\n  await next();\n});",
    '```',
    'When `app.proxy` is true, `X-Forwarded-Host` and XMLHttpRequest headers are trusted; see getServerSideProps and SECRET_KEY.',
    'RuntimeError: Working outside of application context. Use --verbose or @app.route("/api/v1/users/<int:id>").',
  ].join('\n');
  const pages: string[] = [];
  let size = 0;
  for (let i = 0; size < 1_000_000; i++) {
    const variant = page.replace(/lastVisit/g, `visit${i}`).replace(/cookies/g, i % 2 ? 'cookies' : `cookie${i % 97}s`);
    pages.push(variant);
    size += variant.length;
  }
  const text = pages.join('\n\n');
  analyzeText(text.slice(0, 50_000));
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    best = Math.min(best, cpuMs(() => analyzeText(text)).ms);
  }
  t.log(`analyzeText over ${(text.length / 1e6).toFixed(2)} MB: ${best.toFixed(0)} ms`);
  t.true(best < 300);
});
