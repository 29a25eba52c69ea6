// The offline, deterministic extractor the service uses when no LLM is configured: the same text
// and shape always give a byte-identical result (no randomness, no clock, stable sort orders).
//
// What it does, in order:
// 1. Tokens and tags come from compromise; sentences are split by us (".", "!", "?", blank lines,
//    but not after "Dr.", initials, or before a lower-case word), offsets are exact.
// 2. Entity candidates, strongest evidence first, never overlapping:
//    - gazetteer (0.95): a type whose identity property ("name" by default) has an `enum` is
//      matched literally, case-insensitively, wherever those names occur;
//    - cue (0.75, 0.7 for one word): a capitalised phrase is typed by a cue word right next to it:
//      ending it ("Apollo Project"), following it ("the Apollo project") or before it ("the
//      product Apollo", "a conference called Web Summit"). Cue words are the words of each type's
//      label and the nouns of its description that no other type uses;
//    - ner (0.65 to 0.85): compromise's people, organisations and places become Person,
//      Organization/Organisation/Company and Place/Location, only if the shape has that label.
// 3. Mentions with the same key (type + normalized name) are one entity; a one-word person name
//    that is a word of exactly one longer person name ("Ada", "Ada Lovelace") joins it.
//    Entity confidence = best mention + 0.05 per further mention, at most 0.99.
// 4. Relationships: in each sentence, each shape phrase (its `patterns` and the type name read as
//    words, WORKS_FOR → "works for", with verb forms "work", "worked", "working") with the
//    nearest "from"-type mention before it and "to"-type mention after it, at most 8 tokens away.
//    Kept at confidence 0.5 or more (formula in relations.ts).
// agentic_plus keeps everything agentic finds and adds: untyped capitalised phrases beside a
// phrase (Ada designed the Difference Engine → Product), surname-only mentions of a full name
// seen earlier, multi-word names found again in any case, and "the company" (the/this/that + a
// cue word) as the latest entity of that type in this or the previous sentence. Those additions, and relationships
// that need them, must reach 0.6. Each later pass lowers that bar by 0.05 (not below 0.5) and
// lets mentions sit 4 more tokens from the phrase (at most 20).
// Only types in the shape are ever emitted. Properties: the identity property (and `name`) is set
// to the name; nothing else is guessed.
import type { ShapeDef } from '../shapes/types.js';
import type { ExtractedEntity, ExtractionResult, ExtractOptions, Extractor } from './types.js';
import { tokenize, type Tokenized } from './tokens.js';
import { readVocabulary } from './vocabulary.js';
import { compilePatterns, findPatternHits, type PatternHit } from './patterns.js';
import { cueCandidates, gazetteerCandidates, inferredCandidates, nerCandidates, properRuns, selectCandidates } from './candidates.js';
import { draftConfidence, EntityGraph, type Draft } from './graph.js';
import { findRelationships, type FoundRelationship } from './relations.js';

const BASE_THRESHOLD = 0.5;
const PLUS_THRESHOLD = 0.6;
const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function toEntity(draft: Draft, shape: ShapeDef): ExtractedEntity {
  const spans = new Map(draft.mentions.map((m) => [`${m.start}:${m.end}`, m]));
  const mentions = [...spans.values()].sort((a, b) => a.start - b.start || a.end - b.end);
  const name = draft.name;
  const def = shape.entity_types.find((t) => t.label === draft.type);
  const properties: Record<string, string> = {};
  const identity = def?.identity || 'name';
  properties[identity] = name;
  if (identity !== 'name' && def?.properties.some((p) => p.name === 'name')) properties.name = name;
  return {
    key: draft.key,
    type: draft.type,
    name,
    normalized_name: draft.normalized,
    properties,
    mentions: mentions.map((m) => ({ start: m.start, end: m.end, text: m.text })),
    confidence: draftConfidence(draft),
  };
}

function readRelationships(text: string, tokenized: Tokenized, graph: EntityGraph, hits: PatternHit[], maxGap: number, threshold: number): FoundRelationship[] {
  const confidence = new Map([...graph.drafts.values()].map((d) => [d.key, draftConfidence(d)]));
  const found = findRelationships(text, tokenized, graph.mentions(), hits, { maxGap, confidenceOf: (key) => confidence.get(key) ?? 0 });
  return found.filter((r) => r.confidence >= threshold);
}

export class BuiltinExtractor implements Extractor {
  readonly name = 'builtin-nlp/1';

  async extract(text: string, shape: ShapeDef, options: ExtractOptions): Promise<ExtractionResult> {
    const pass = Math.max(1, Math.floor(options.pass ?? 1));
    const maxGap = Math.min(20, 8 + 4 * (pass - 1));
    const plusThreshold = Math.max(BASE_THRESHOLD, PLUS_THRESHOLD - 0.05 * (pass - 1));
    const vocab = readVocabulary(shape);
    const tokenized = tokenize(text);
    const { tokens } = tokenized;
    const hits = findPatternHits(tokenized, compilePatterns(shape));
    const runs = properRuns(tokens);

    const taken = new Uint8Array(tokens.length);
    const graph = new EntityGraph(text, tokens, taken);
    const base = [...gazetteerCandidates(tokens, vocab), ...cueCandidates(tokens, runs, vocab), ...nerCandidates(tokens, vocab)];
    for (const c of selectCandidates(base, taken.slice())) graph.addCandidate(c, false);
    const personType = vocab.ner.get('Person');
    if (personType) graph.mergeShortNames(personType);
    const relationships = new Map<string, FoundRelationship>();
    const keep = (r: FoundRelationship) => {
      const id = `${r.type}\u0000${r.from_key}\u0000${r.to_key}`;
      const seen = relationships.get(id);
      if (!seen || r.confidence > seen.confidence) relationships.set(id, seen ? { ...r, evidence: seen.evidence, at: seen.at } : r);
    };
    readRelationships(text, tokenized, graph, hits, maxGap, BASE_THRESHOLD).forEach(keep);

    if (options.effort === 'agentic_plus') {
      for (const c of selectCandidates(inferredCandidates(tokens, runs, hits), taken.slice())) graph.addCandidate(c, true);
      if (personType) graph.addSurnameMentions(personType);
      graph.addRepeatMentions();
      graph.addDefiniteMentions(vocab.cues);
      graph.dropWeakExtras(plusThreshold);
      readRelationships(text, tokenized, graph, hits, maxGap, plusThreshold).forEach(keep);
    }

    const entities = [...graph.drafts.values()]
      .map((d) => toEntity(d, shape))
      .sort((a, b) => (a.mentions[0]?.start ?? 0) - (b.mentions[0]?.start ?? 0) || byString(a.key, b.key));
    const sorted = [...relationships.values()].sort((a, b) => a.at - b.at || byString(a.type, b.type) || byString(a.from_key, b.from_key) || byString(a.to_key, b.to_key));
    return {
      entities,
      relationships: sorted.map(({ type, from_key, to_key, evidence, confidence }) => ({ type, from_key, to_key, evidence, confidence })),
      stats: { characters: text.length, sentences: tokenized.sentences.length },
    };
  }
}
