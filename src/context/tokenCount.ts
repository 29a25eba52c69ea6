// Token counting for context budgets with a real BPE tokenizer (gpt-tokenizer's cl100k_base and
// o200k_base encodings), never a characters-per-token estimate: CJK text takes one or more tokens
// per character and would overshoot any such estimate. Special-token text (<|endoftext|>) in
// content is counted as ordinary text, the way a prompt carrying it as data is encoded.
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import type { TokenizerName } from '../slices/definition.js';

const COUNTERS: Record<TokenizerName, typeof countCl100k> = { cl100k_base: countCl100k, o200k_base: countO200k };
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** Counts tokens of one encoding, remembering the texts it has seen (one compile re-counts lines). */
export class TokenCounter {
  private readonly seen = new Map<string, number>();
  private readonly countOf: typeof countCl100k;

  constructor(readonly tokenizer: TokenizerName) {
    this.countOf = COUNTERS[tokenizer];
  }

  count(text: string): number {
    if (text === '') return 0;
    let n = this.seen.get(text);
    if (n === undefined) {
      n = this.countOf(text, AS_TEXT);
      if (this.seen.size < 20_000) this.seen.set(text, n);
    }
    return n;
  }

  /** The longest prefix of text (whole code points) within maxTokens, with "…" when cut. */
  clip(text: string, maxTokens: number): string {
    if (this.count(text) <= maxTokens) return text;
    const chars = [...text];
    let lo = 0;
    let hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.count(`${chars.slice(0, mid).join('')}…`) <= maxTokens) lo = mid;
      else hi = mid - 1;
    }
    return `${chars.slice(0, lo).join('')}…`;
  }
}
