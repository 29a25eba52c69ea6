// The offline, deterministic extractor the service uses when no LLM is configured: the same text
// and shape always give a byte-identical result (no randomness, no clock, stable sort orders).
// Why rules over compromise's tagger and not a statistical pipeline: see README "Extraction".
//
// 1. Tokens and part-of-speech tags come from compromise; sentences and clauses are ours.
// 2. Names are found whole (mentions.ts), lower-case concepts only in concept slots (concepts.ts).
// 3. Each name is typed by scored evidence (typing.ts): its own words, the nouns and titles
//    around it, compromise's lexicon, the relation slots it fills, and its other mentions in the
//    text. Only types the shape has are emitted; a shape label listed in an enum is a gazetteer.
// 4. Mentions of one name are one entity; a first name alone joins the one full name it belongs
//    to. agentic_plus also links surnames, repeated names and "the company" to earlier entities.
// 5. Relations are read clause by clause around relation phrases (clauses.ts) plus roles, "Org in
//    Place" and "at Event" (implied.ts); never from a negated clause; a many-to-one type keeps
//    one target per source (the most confident, then the first stated).
import type { ShapeDef } from '../shapes/types.js';
import type { ExtractedEntity, ExtractedRelationship, ExtractionResult, ExtractOptions, Extractor } from './types.js';
import { tokenize, type Token } from './tokenize.js';
import { readVocabulary } from './vocabulary.js';
import { type Candidate, cueCandidates, gazetteerCandidates, selectCandidates } from './candidates.js';
import { draftConfidence, EntityGraph, type Draft } from './entityMerge.js';
import { nameSpans, type Span } from './mentions.js';
import { conceptSpans } from './concepts.js';
import { compileTriggers, findTriggerHits, type TriggerHit } from './triggers.js';
import {
  add,
  decide,
  emptyScores,
  evidenceAgreement,
  MIN_SCORE,
  type SpanEvidence,
  spanScores,
  surfaceKey,
  total,
} from './typing.js';
import { readSignals } from './signals.js';
import { blockStarts, mergeBlocks } from './blocks.js';
import { clauseNumbers, indexMentions, readClauses, type Reading } from './clauses.js';
import { impliedReadings } from './implied.js';
import { categoryLabels, keepCardinality } from './shapeFit.js';
import type { Category } from './lexicon.js';

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const round3 = (n: number): number => Math.round(n * 1000) / 1000;
const MIN_RELATION_CONFIDENCE = 0.5;

function toEntity(draft: Draft, shape: ShapeDef): ExtractedEntity {
  const spans = new Map(draft.mentions.map((m) => [`${m.start}:${m.end}`, m]));
  const mentions = [...spans.values()].sort((a, b) => a.start - b.start || a.end - b.end);
  const def = shape.entity_types.find((t) => t.label === draft.type);
  const properties: Record<string, string> = {};
  const identity = def?.identity || 'name';
  properties[identity] = draft.name;
  if (identity !== 'name' && def?.properties.some((p) => p.name === 'name')) properties.name = draft.name;
  return {
    key: draft.key,
    type: draft.type,
    name: draft.name,
    normalized_name: draft.normalized,
    properties,
    mentions: mentions.map((m) => ({ start: m.start, end: m.end, text: m.text })),
    confidence: draftConfidence(draft),
  };
}

/** Concept phrases win over a lone sentence-initial capital they contain ("Deep" in "Deep learning"). */
function mergeSpans(names: Span[], concepts: Span[]): Span[] {
  const kept = concepts.filter((c) =>
    names.every((n) => n.last < c.first || n.first > c.last || (n.first === n.last && n.first === c.first)),
  );
  const names2 = names.filter((n) => !kept.some((c) => n.first >= c.first && n.last <= c.last));
  const seen = new Set<string>();
  return [...names2, ...kept]
    .filter((s) => !seen.has(`${s.first}:${s.last}`) && seen.add(`${s.first}:${s.last}`))
    .sort((a, b) => a.first - b.first);
}

/** The name nearest a relation phrase on each side is likely of the type the phrase expects. */
function slotEvidence(
  text: string,
  tokens: Token[],
  spans: Span[],
  hits: TriggerHit[],
  clause: number[],
  labelCategory: Map<string, Category>,
  scores: SpanEvidence[],
): void {
  for (const hit of hits) {
    const leftIsFrom = hit.trigger.reverse === hit.passive;
    const [leftLabel, rightLabel] = leftIsFrom
      ? [hit.trigger.rel.from, hit.trigger.rel.to]
      : [hit.trigger.rel.to, hit.trigger.rel.from];
    const after = hit.passive ? hit.last + 1 : hit.last;
    const leftAt = lastIndexBefore(spans, hit.first);
    const left = spans[leftAt];
    const right = spans[leftAt + 1];
    const lc = labelCategory.get(leftLabel);
    const rc = labelCategory.get(rightLabel);
    const between = left ? tokens.slice(left.last + 1, hit.first) : [];
    if (
      left &&
      lc &&
      clause[left.last] === clause[hit.first] &&
      between.length <= 4 &&
      !between.some((t) => t.tags.has('Pronoun') || RELATIVES.has(t.key))
    ) {
      for (const i of chain(text, tokens, spans, leftAt, -1)) (scores[i] as SpanEvidence).around[lc] += 1.5;
    }
    if (right && rc && right.first > after && right.first - after <= 3 && clause[right.first] === clause[hit.first]) {
      for (const i of chain(text, tokens, spans, leftAt + 1, 1)) (scores[i] as SpanEvidence).around[rc] += 2;
    }
  }
}

const RELATIVES = new Set(['which', 'who', 'that', 'where', 'whom']);

/** Index of the last span ending before token `index` (-1 when none): spans are sorted. */
function lastIndexBefore(spans: Span[], index: number): number {
  let lo = 0;
  let hi = spans.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((spans[mid] as Span).last < index) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Span `at` and the spans coordinated with it ("Linux and Git", "A, B and C") in one direction. */
function chain(text: string, tokens: Token[], spans: Span[], at: number, direction: -1 | 1): number[] {
  const out = [at];
  for (let i = at; ; i += direction) {
    const [a, b] = direction === 1 ? [spans[i], spans[i + 1]] : [spans[i - 1], spans[i]];
    if (!a || !b) break;
    const words = tokens
      .slice(a.last + 1, b.first)
      .map((t) => t.key)
      .filter((k) => k !== '' && k !== 'the');
    const linked =
      (words.length === 0 && /^[.]?\s*,\s*$/u.test(text.slice(a.end, b.start))) ||
      (words.length === 1 && ['and', 'or'].includes(words[0] as string));
    if (!linked) break;
    out.push(i + direction);
  }
  return out;
}

/** Each span's type from its scored evidence; one name, one type: every mention's evidence counts for all of them. */
function typeSpans(
  text: string,
  spans: Span[],
  scores: SpanEvidence[],
  labelOf: Map<Category, string>,
  pass: number,
): { typed: Candidate[]; agreements: number[] } {
  const bySurface = new Map<string, SpanEvidence>();
  const surfaceOf = (s: Span) => surfaceKey(text.slice(s.start, s.end));
  spans.forEach((s, i) => {
    const sum = bySurface.get(surfaceOf(s)) ?? { inside: emptyScores(), around: emptyScores() };
    add(sum.inside, (scores[i] as SpanEvidence).inside);
    add(sum.around, (scores[i] as SpanEvidence).around);
    bySurface.set(surfaceOf(s), sum);
  });
  const agreements: number[] = [];
  const minScore = Math.max(0.7, MIN_SCORE - 0.1 * (pass - 1));
  const typed: Candidate[] = [];
  spans.forEach((s) => {
    const evidence = bySurface.get(surfaceOf(s)) as SpanEvidence;
    const decision = decide(total(evidence), minScore);
    const label = decision && labelOf.get(decision.category);
    if (decision && label) agreements.push(evidenceAgreement(evidence));
    if (decision && label)
      typed.push({
        first: s.first,
        last: s.last,
        end: s.end,
        type: label,
        source: 'ner',
        confidence: decision.confidence,
      });
  });
  return { typed, agreements };
}

/** The relationships read, the most confident per (type, from, to) (then the first stated), in text order. */
function relationshipsOf(
  readings: Reading[],
  graph: EntityGraph,
  tokenized: ReturnType<typeof tokenize>,
  text: string,
  shape: ShapeDef,
): ExtractedRelationship[] {
  const { tokens } = tokenized;
  const confidence = new Map([...graph.drafts.values()].map((d) => [d.key, draftConfidence(d)]));
  const best = new Map<string, ExtractedRelationship & { at: number }>();
  for (const r of readings) {
    const weaker = Math.min(confidence.get(r.from.entity.key) ?? 0, confidence.get(r.to.entity.key) ?? 0);
    const value = round3(r.confidence * (0.75 + 0.25 * weaker));
    const id = `${r.rel.type}\u0000${r.from.entity.key}\u0000${r.to.entity.key}`;
    const seen = best.get(id);
    if (
      value < MIN_RELATION_CONFIDENCE ||
      (seen && (seen.confidence > value || (seen.confidence === value && seen.at <= r.at)))
    )
      continue;
    const sentence = tokenized.sentences[tokens[r.at]?.sentence ?? -1];
    best.set(id, {
      type: r.rel.type,
      from_key: r.from.entity.key,
      to_key: r.to.entity.key,
      evidence: sentence ? text.slice(sentence.start, sentence.end).trim() : '',
      confidence: value,
      at: r.at,
    });
  }
  return keepCardinality(shape, [...best.values()])
    .sort(
      (a, b) =>
        a.at - b.at || byString(a.type, b.type) || byString(a.from_key, b.from_key) || byString(a.to_key, b.to_key),
    )
    .map(({ type, from_key, to_key, evidence, confidence: c }) => ({
      type,
      from_key,
      to_key,
      evidence,
      confidence: c,
    }));
}

export class BuiltinExtractor implements Extractor {
  readonly name = 'builtin-nlp/2';

  async extract(text: string, shape: ShapeDef, options: ExtractOptions): Promise<ExtractionResult> {
    const starts = blockStarts(text);
    if (starts.length === 1) return this.extractBlock(text, shape, options);
    const parts: { offset: number; result: ExtractionResult }[] = [];
    for (let i = 0; i < starts.length; i++) {
      const offset = starts[i] as number;
      parts.push({
        offset,
        result: this.extractBlock(text.slice(offset, starts[i + 1] ?? text.length), shape, options),
      });
      options.onProgress?.();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return mergeBlocks(shape, text, parts);
  }

  private extractBlock(text: string, shape: ShapeDef, options: ExtractOptions): ExtractionResult {
    const pass = Math.max(1, Math.floor(options.pass ?? 1));
    const vocab = readVocabulary(shape);
    const { labelOf, categoryOf } = categoryLabels(shape);
    const tokenized = tokenize(text);
    const { tokens } = tokenized;
    const clause = clauseNumbers(text, tokens);
    const hits = findTriggerHits(tokens, compileTriggers(shape));
    const conceptLabel = labelOf.get('Concept');
    const partOf = hits.filter(
      (h) => conceptLabel !== undefined && h.trigger.rel.from === conceptLabel && h.trigger.rel.to === conceptLabel,
    );
    const names = nameSpans(text, tokens);
    const spans = conceptLabel ? mergeSpans(names, conceptSpans(text, tokens, partOf)) : names;

    const cues = new Map<string, Category>();
    for (const [word, label] of vocab.cues) {
      const c = categoryOf.get(label);
      if (c) cues.set(word, c);
    }
    const scores = spans.map((s) => spanScores({ text, tokens, cues }, s));
    slotEvidence(text, tokens, spans, hits, clause, categoryOf, scores);
    const { typed, agreements } = typeSpans(text, spans, scores, labelOf, pass);

    const taken = new Uint8Array(tokens.length);
    const graph = new EntityGraph(text, tokens, taken);
    for (const c of selectCandidates([...gazetteerCandidates(tokens, vocab), ...typed], taken.slice()))
      graph.addCandidate(c, false);
    // Shape types outside the six general categories are still found by their cue words.
    const uncovered = cueCandidates(tokens, names, vocab).filter((c) => !categoryOf.has(c.type));
    for (const c of selectCandidates(uncovered, taken.slice())) graph.addCandidate(c, false);
    const personLabel = labelOf.get('Person');
    if (personLabel) graph.mergeShortNames(personLabel);
    if (options.effort === 'agentic_plus') {
      if (personLabel) graph.addSurnameMentions(personLabel);
      graph.addRepeatMentions();
      graph.addDefiniteMentions(vocab.cues);
    }

    const ctx = {
      text,
      tokens,
      ...indexMentions(graph.mentions()),
      clause,
      personLabel,
      orgLabel: labelOf.get('Organization'),
    };
    const readings: Reading[] = [...readClauses(ctx, hits), ...impliedReadings(ctx, shape)];
    const relationships = relationshipsOf(readings, graph, tokenized, text, shape);
    const entities = [...graph.drafts.values()]
      .map((d) => toEntity(d, shape))
      .sort((a, b) => (a.mentions[0]?.start ?? 0) - (b.mentions[0]?.start ?? 0) || byString(a.key, b.key));
    const agreement = agreements.length ? agreements.reduce((x, y) => x + y, 0) / agreements.length : 1;
    const signals = readSignals(tokenized, shape, entities, relationships, names, agreement);
    return {
      entities,
      relationships,
      stats: { characters: text.length, sentences: tokenized.sentences.length, signals },
    };
  }
}
