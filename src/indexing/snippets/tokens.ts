/**
 * Token counts with a real tokenizer (o200k_base, the GPT-4o/GPT-5 encoding), offline. Used
 * for each snippet's `tokens`, which the context budget adds up.
 */
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Special-token text such as `<|endoftext|>` occurs in docs about language models; it is
 * counted as the plain text it is (the tokenizer would throw by default).
 */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * BPE is quadratic in the length of a single pre-token, and a run of thousands of letters
 * without whitespace (base64, minified code, `aaaa…`) is one pre-token: such runs are
 * counted in slices, which changes the count by a token or so per slice.
 */
const LONG_RUN = /\S{1024,}/g;
const SLICE = 256;

/** Number of o200k_base tokens of the text; fast also for very long or pathological strings. */
export function countTokens(text: string): number {
  if (text === '') return 0;
  if (text.length < 1024) return countO200k(text, AS_PLAIN_TEXT);
  let total = 0;
  let last = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    total += countPlain(text.slice(last, m.index));
    for (let i = 0; i < m[0].length; i += SLICE) total += countO200k(m[0].slice(i, i + SLICE), AS_PLAIN_TEXT);
    last = m.index + m[0].length;
  }
  return total + countPlain(text.slice(last));
}

function countPlain(text: string): number {
  return text === '' ? 0 : countO200k(text, AS_PLAIN_TEXT);
}
