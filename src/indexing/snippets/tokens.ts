/** Token counts with a real tokenizer (o200k_base, the GPT-4o encoding), offline. */
import { countTokens as count } from 'gpt-tokenizer/encoding/o200k_base';

export function countTokens(text: string): number {
  return text ? count(text) : 0;
}
