// Token counting for context budgets with a real BPE tokenizer (gpt-tokenizer's cl100k_base and
// o200k_base encodings), never a characters-per-token estimate: CJK text takes one or more tokens
// per character and would overshoot any such estimate. Special-token text (<|endoftext|>) in
// content is counted as ordinary text, the way a prompt carrying it as data is encoded.
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import type { TokenizerName } from '../slices/definition.js';

const COUNTERS: Record<TokenizerName, typeof countCl100k> = { cl100k_base: countCl100k, o200k_base: countO200k };
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Counts already made, per encoding, shared by every compile of the process: the same items come back compile
 * after compile (a project's memories, under refs that change). Bounded by the characters held; the texts used
 * least recently are dropped first.
 */
class SharedCounts {
  private readonly counts = new Map<string, number>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(text: string): number | undefined {
    const n = this.counts.get(text);
    if (n !== undefined) {
      this.counts.delete(text);
      this.counts.set(text, n);
    }
    return n;
  }

  set(text: string, n: number): void {
    if (text.length > this.maxChars / 1000 || this.counts.has(text)) return;
    this.counts.set(text, n);
    this.chars += text.length;
    for (const oldest of this.counts.keys()) {
      if (this.chars <= this.maxChars) break;
      this.counts.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}

/** About 8 M characters per encoding (16 MB of strings at most); a text over 8,000 characters is not kept. */
const SHARED: Record<TokenizerName, SharedCounts> = {
  cl100k_base: new SharedCounts(8_000_000),
  o200k_base: new SharedCounts(8_000_000),
};

/** Counts tokens of one encoding, remembering the texts it has seen (one compile re-counts lines). */
export class TokenCounter {
  private readonly seen = new Map<string, number>();
  private readonly countOf: typeof countCl100k;
  private readonly shared: SharedCounts;

  constructor(readonly tokenizer: TokenizerName) {
    this.countOf = COUNTERS[tokenizer];
    this.shared = SHARED[tokenizer];
  }

  count(text: string): number {
    if (text === '') return 0;
    let n = this.seen.get(text);
    if (n === undefined) {
      n = this.shared.get(text);
      if (n === undefined) {
        n = this.countOf(text, AS_TEXT);
        this.shared.set(text, n);
      }
      if (this.seen.size < 20_000) this.seen.set(text, n);
    }
    return n;
  }

  /**
   * The tokens of a text that splits at `at` into two parts no token spans (the renderer says where: after an
   * item's ref, Renderer.refEnd): the sum of both parts' counts, so the part that does not change with the ref
   * is counted once, whatever ref the item gets.
   */
  countSplit(text: string, at: number | null): number {
    if (at === null || at <= 0 || at >= text.length) return this.count(text);
    return this.count(text.slice(0, at)) + this.count(text.slice(at));
  }

  /** The longest prefix of text (whole code points) within maxTokens, with "…" when cut. */
  clip(text: string, maxTokens: number): string {
    if (this.count(text) <= maxTokens) return text;
    const chars = [...text];
    let lo = 0;
    let hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      // Counted without the caches: the prefixes tried are not texts that come back.
      if (this.countOf(`${chars.slice(0, mid).join('')}…`, AS_TEXT) <= maxTokens) lo = mid;
      else hi = mid - 1;
    }
    return `${chars.slice(0, lo).join('')}…`;
  }
}
