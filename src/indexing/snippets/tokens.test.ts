import test from 'ava';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens } from './tokens';
import { cpuMs } from '../../util/cpu-time';

test('counts o200k_base tokens', (t) => {
  t.is(countTokens(''), 0);
  t.is(countTokens('hello world'), 2);
  const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(500);
  t.is(countTokens(prose), o200k(prose), 'exact for ordinary text of any length');
  const code = 'const app = new Koa();\napp.use(async (ctx) => {\n  ctx.body = "Hello";\n});\n'.repeat(100);
  t.is(countTokens(code), o200k(code));
});

test('special-token text in docs is counted as text instead of throwing', (t) => {
  t.notThrows(() => countTokens('The model stops at <|endoftext|> or <|im_end|>.'));
  t.true(countTokens('<|endoftext|>') > 1);
});

test('pathological runs without whitespace are fast and nearly exact', (t) => {
  const { value: n, ms } = cpuMs(() => countTokens('A'.repeat(1_000_000)));
  t.true(ms < 1500, `${ms.toFixed(0)} ms of CPU`);
  t.is(n, 125_000);
  let x = 7;
  let b64 = '';
  for (let i = 0; i < 20_000; i++) b64 += 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[(x = (x * 1103515245 + 12345) % 2147483648) % 64];
  const exact = o200k(b64);
  t.true(Math.abs(countTokens(b64) - exact) / exact < 0.05);
});

test('deterministic', (t) => {
  const text = 'Some text with `code` and unicode — 日本語 — 🎉';
  t.is(countTokens(text), countTokens(text));
});
