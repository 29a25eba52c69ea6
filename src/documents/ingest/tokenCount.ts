// Token counts of document and chunk text (token_count, and from it extractedTokenCount and the loop
// token figures), counted by a real BPE tokenizer: gpt-tokenizer with the o200k_base encoding of the
// GPT-4o model family. Other models' tokenizers differ by a few percent; the count is for budgeting.
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

export const TOKEN_ENCODING = 'o200k_base';

export function countTokens(text: string): number {
  return text === '' ? 0 : countO200k(text);
}
