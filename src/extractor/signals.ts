// What an extraction's text offered and what came of it, counted the same way for every
// extractor, so the loop quality (quality.ts) can read it without a gold standard: sentences
// holding a name and how many of them yielded an entity, names found and how many became one,
// sentences holding two entities the shape can relate (and no negation, which rightly yields
// none) and how many yielded a relationship.
import type { ShapeDef } from '../shapes/types.js';
import type { Span } from './mentions.js';
import type { Tokenized } from './tokenize.js';
import { NEGATORS } from './lexicon.js';
import type { ExtractedEntity, ExtractedRelationship, ExtractionSignals } from './types.js';

function sentenceAt(tokenized: Tokenized, offset: number): number {
  const { sentences } = tokenized;
  let lo = 0;
  let hi = sentences.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = sentences[mid] as { start: number; end: number };
    if (offset < s.start) hi = mid - 1;
    else if (offset >= s.end) lo = mid + 1;
    else return mid;
  }
  return Math.max(0, Math.min(sentences.length - 1, lo));
}

export function readSignals(
  tokenized: Tokenized,
  shape: ShapeDef,
  entities: ExtractedEntity[],
  relationships: ExtractedRelationship[],
  names: Span[],
  agreement?: number,
): ExtractionSignals {
  const withNames = new Set(names.map((n) => sentenceAt(tokenized, n.start)));
  const bySentence = new Map<number, Set<string>>();
  const covered = new Uint8Array(
    tokenized.tokens.length ? (tokenized.tokens[tokenized.tokens.length - 1] as { end: number }).end + 1 : 0,
  );
  for (const e of entities) {
    for (const m of e.mentions) {
      const s = sentenceAt(tokenized, m.start);
      withNames.add(s);
      bySentence.set(s, (bySentence.get(s) ?? new Set()).add(e.key));
      covered.fill(1, m.start, m.end);
    }
  }
  const namesTyped = names.filter((n) => covered.subarray(n.start, n.end).includes(1)).length;
  const typeOf = new Map(entities.map((e) => [e.key, e.type]));
  const relatable = new Set(shape.relationship_types.flatMap((r) => [`${r.from}|${r.to}`, `${r.to}|${r.from}`]));
  let relatableSentences = 0;
  let relatedSentences = 0;
  const negatedSentence = (s: number): boolean => {
    const { firstToken, lastToken } = tokenized.sentences[s] as { firstToken: number; lastToken: number };
    return tokenized.tokens
      .slice(firstToken, lastToken + 1)
      .some((t) => NEGATORS.has(t.key) || t.key.endsWith("n't") || t.tags.has('Negative'));
  };
  for (const [sentence, keys] of bySentence) {
    if (negatedSentence(sentence)) continue;
    const list = [...keys];
    const canRelate = list.some((a, i) =>
      list.some((b, j) => i !== j && relatable.has(`${typeOf.get(a)}|${typeOf.get(b)}`)),
    );
    if (!canRelate) continue;
    relatableSentences += 1;
    if (relationships.some((r) => keys.has(r.from_key) && keys.has(r.to_key))) relatedSentences += 1;
  }
  return {
    sentences_with_names: withNames.size,
    sentences_yielding: bySentence.size,
    names: names.length,
    names_typed: namesTyped,
    relatable_sentences: relatableSentences,
    related_sentences: relatedSentences,
    ...(agreement === undefined ? {} : { agreement: Math.round(agreement * 10000) / 10000 }),
  };
}
