// An item line is counted as its ref ("- [m12]") and the rest (TokenCounter.countSplit at Renderer.refEnd), so the
// rest is counted once whatever ref the item gets. That is only right if no token of either encoding spans the
// split: checked against a whole count of the line for lines of every kind, refs of every width and texts of
// every sort of character (words, digits, CJK, emoji, brackets and quotes, contractions, stray whitespace).
import assert from 'node:assert/strict';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { rendererFor, type RenderItem } from '../../src/context/render.js';
import { TokenCounter } from '../../src/context/tokenCount.js';

const AS_TEXT = { disallowedSpecial: new Set<string>() };
const PIECES = [
  'plan',
  'Rollout',
  ' ',
  '  ',
  '\t',
  '\n',
  '2026',
  '7',
  '1234567',
  '東京の研究所',
  'で働く',
  '🚀',
  '👩‍💻',
  "'s",
  "'ll",
  ']',
  '[',
  '(',
  ')',
  '] ',
  ' [',
  '"',
  '{"a":1}',
  '#',
  '-',
  '—',
  '…',
  '.',
  ',',
  ':',
  '/',
  'AND',
  'x2',
  'Ünïcödé',
  '<|endoftext|>',
  '  \n ',
  'https://example.com/a?b=c',
];

/** A deterministic generator (mulberry32), so a failure names a line that can be made again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('an item line counted as its ref and the rest', () => {
  it('has the tokens of the whole line, in both encodings, for every kind of line and ref width', () => {
    const next = random(20261128);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const text = (max: number) => Array.from({ length: Math.floor(next() * max) }, () => pick(PIECES)).join('');
    const r = rendererFor('markdown');
    let split = 0;
    for (let i = 0; i < 3000; i += 1) {
      const type = pick(['memory', 'chunk', 'entity'] as const);
      const letter = type === 'memory' ? 'm' : type === 'chunk' ? 'd' : 'e';
      const item: RenderItem = {
        ref: `${letter}${pick(['1', '9', '12', '99', '100', '999', '1000', '12345'])}`,
        type,
        label: pick(['Person', 'Organization', 'Entity', 'Chunk']),
        name: text(4),
        text: text(12),
        kind: pick([null, 'fact', 'decision']),
        date: pick([null, '2026-11-28']),
      };
      const line = r.item(item);
      const at = r.refEnd(line);
      if (at !== null) split += 1;
      for (const [name, whole] of [
        ['cl100k_base', cl100k],
        ['o200k_base', o200k],
      ] as const) {
        const counter = new TokenCounter(name);
        assert.equal(counter.countSplit(line, at), whole(line, AS_TEXT), `${name}: ${JSON.stringify(line)}`);
      }
    }
    assert.equal(split, 3000, 'every markdown item line splits after its ref');
  });

  it('is counted whole in the JSON Lines format, where the ref shares a piece with the quote after it', () => {
    const r = rendererFor('json');
    const line = r.item({ ref: 'm12', type: 'memory', label: 'Memory', name: 'n', text: 't', kind: null, date: null });
    assert.equal(r.refEnd(line), null);
  });
});
