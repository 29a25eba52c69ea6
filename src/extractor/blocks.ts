// Long texts are read in blocks of whole paragraphs (blank-line boundaries, about BLOCK_CHARS
// each), so one extraction never holds the event loop for long: between blocks the extractor
// reports progress (the loop activity heartbeats) and yields. Names, pronouns and relations are
// read within a block; entities of the same key across blocks are one entity.
import type { ShapeDef } from '../shapes/types.js';
import { keepCardinality } from './shapeFit.js';
import type { ExtractedEntity, ExtractedRelationship, ExtractionResult, ExtractionSignals } from './types.js';

export const BLOCK_CHARS = 20_000;

/** Start offsets of the blocks: cut at the last blank line before each BLOCK_CHARS boundary. */
export function blockStarts(text: string): number[] {
  const starts = [0];
  let from = 0;
  while (text.length - from > BLOCK_CHARS) {
    const window = text.slice(from, from + BLOCK_CHARS);
    const cut = window.search(/\n[^\S\n]*\n(?![\s\S]*\n[^\S\n]*\n)/u);
    if (cut <= 0) break;
    from += cut + 1;
    starts.push(from);
  }
  return starts;
}

export function mergeBlocks(
  shape: ShapeDef,
  text: string,
  parts: { offset: number; result: ExtractionResult }[],
): ExtractionResult {
  const entities = new Map<string, ExtractedEntity>();
  const relationships = new Map<string, ExtractedRelationship & { at: number }>();
  const signals: ExtractionSignals = {
    sentences_with_names: 0,
    sentences_yielding: 0,
    names: 0,
    names_typed: 0,
    relatable_sentences: 0,
    related_sentences: 0,
  };
  let agreement = 0;
  let sentences = 0;
  parts.forEach(({ offset, result }, block) => {
    for (const e of result.entities) {
      const mentions = e.mentions.map((m) => ({ start: m.start + offset, end: m.end + offset, text: m.text }));
      const seen = entities.get(e.key);
      if (seen) {
        seen.mentions.push(...mentions);
        seen.confidence = Math.max(seen.confidence, e.confidence);
      } else {
        entities.set(e.key, { ...e, mentions });
      }
    }
    result.relationships.forEach((r, i) => {
      const id = `${r.type}\u0000${r.from_key}\u0000${r.to_key}`;
      const seen = relationships.get(id);
      if (!seen || seen.confidence < r.confidence) relationships.set(id, { ...r, at: block * 1_000_000 + i });
    });
    const s = result.stats.signals;
    if (s) {
      for (const k of [
        'sentences_with_names',
        'sentences_yielding',
        'names',
        'names_typed',
        'relatable_sentences',
        'related_sentences',
      ] as const)
        signals[k] += s[k];
      agreement += (s.agreement ?? 1) * s.names_typed;
    }
    sentences += result.stats.sentences;
  });
  signals.agreement = Math.round((signals.names_typed ? agreement / signals.names_typed : 1) * 10000) / 10000;
  const kept = keepCardinality(shape, [...relationships.values()])
    .sort((a, b) => a.at - b.at)
    .map(({ at: _at, ...r }) => r);
  return {
    entities: [...entities.values()],
    relationships: kept,
    stats: { characters: text.length, sentences, signals },
  };
}
