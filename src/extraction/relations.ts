// Reads relationships from sentences: a shape phrase ("works for") with a mention of the "from"
// type before it and a mention of the "to" type after it, nearest on each side.
import type { ExtractedRelationship } from './types.js';
import type { PatternHit } from './patterns.js';
import type { PlacedMention } from './graph.js';
import { sentenceText, type Token, type Tokenized } from './tokens.js';

export interface FoundRelationship extends ExtractedRelationship {
  /** Offset of the sentence, for ordering. */
  at: number;
}

export interface RelationOptions {
  /** Most tokens allowed between a mention and the phrase, on each side. */
  maxGap: number;
  /** Entity confidence by key, at the moment relationships are read. */
  confidenceOf: (key: string) => number;
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

const COORDINATORS = new Set(['and', 'or', '&']);

/**
 * "Microsoft, Google and Apple are based in ...": the nearest mention plus the mentions of the
 * same type chained to it by commas, "and", "or" or "&", walking away from the phrase.
 */
function coordinated(text: string, tokens: Token[], inSentence: PlacedMention[], nearest: PlacedMention, direction: -1 | 1): PlacedMention[] {
  const chain = [nearest];
  const ordered = direction === -1 ? [...inSentence].reverse() : inSentence;
  let edge = nearest;
  for (const m of ordered) {
    const beyond = direction === -1 ? m.last < edge.first : m.first > edge.last;
    if (!beyond) continue;
    if (m.entity.type !== nearest.entity.type) break;
    const [lo, hi] = direction === -1 ? [m.last, edge.first] : [edge.last, m.first];
    const between = tokens.slice(lo + 1, hi);
    const linked = between.length === 0
      ? /^\s*,\s*$/u.test(text.slice((tokens[lo] as Token).end, (tokens[hi] as Token).start))
      : between.length === 1 && COORDINATORS.has((between[0] as Token).key);
    if (!linked) break;
    chain.push(m);
    edge = m;
  }
  return chain;
}

/**
 * confidence = phrase weight (1 listed, 0.9 derived from the type name)
 *            × proximity (1 when at most 4 tokens separate the mentions from the phrase, else 0.8)
 *            × the weaker endpoint's entity confidence.
 */
export function findRelationships(text: string, { tokens, sentences }: Tokenized, mentions: PlacedMention[], hits: PatternHit[], options: RelationOptions): FoundRelationship[] {
  const bySentence = new Map<number, PlacedMention[]>();
  for (const m of mentions) {
    const s = tokens[m.first]?.sentence ?? -1;
    bySentence.set(s, [...(bySentence.get(s) ?? []), m]);
  }
  const found = new Map<string, FoundRelationship>();
  for (const { pattern, first, last } of hits) {
    const sentenceIndex = tokens[first]?.sentence ?? -1;
    const inSentence = bySentence.get(sentenceIndex) ?? [];
    if (inSentence.some((m) => m.first <= last && m.last >= first)) continue;
    let from: PlacedMention | undefined;
    let to: PlacedMention | undefined;
    for (const m of inSentence) {
      if (m.entity.type === pattern.rel.from && m.last < first && first - m.last - 1 <= options.maxGap) from = m;
      if (!to && m.entity.type === pattern.rel.to && m.first > last && m.first - last - 1 <= options.maxGap) to = m;
    }
    if (!from || !to) continue;
    const sentence = sentences[sentenceIndex];
    for (const f of coordinated(text, tokens, inSentence, from, -1)) {
      for (const t of coordinated(text, tokens, inSentence, to, 1)) {
        if (f.entity.key === t.entity.key) continue;
        const gap = first - f.last - 1 + (t.first - last - 1);
        const weaker = Math.min(options.confidenceOf(f.entity.key), options.confidenceOf(t.entity.key));
        const confidence = round3(pattern.weight * (gap <= 4 ? 1 : 0.8) * weaker);
        const id = `${pattern.rel.type}\u0000${f.entity.key}\u0000${t.entity.key}`;
        const previous = found.get(id);
        if (previous && previous.confidence >= confidence) continue;
        found.set(id, {
          type: pattern.rel.type,
          from_key: f.entity.key,
          to_key: t.entity.key,
          evidence: previous?.evidence ?? (sentence ? sentenceText(text, sentence) : ''),
          confidence,
          at: previous?.at ?? sentence?.start ?? 0,
        });
      }
    }
  }
  return [...found.values()];
}
