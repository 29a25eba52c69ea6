// Relation phrases compiled for one shape: the shape's own patterns and its type names read as
// words (WORKS_FOR → "works for"), plus, for the general shape's relation types, the English
// verbs that state them (lexicon.ts TRIGGERS), each in all its verb forms and with its voice.
import type { RelationshipTypeDef, ShapeDef } from '../shapes/types.js';
import { TRIGGERS } from './lexicon.js';
import { normalizeName } from './normalize.js';
import { defaultPhrase, formsOf } from './patterns.js';
import type { Token } from './tokenize.js';

export interface Trigger {
  rel: RelationshipTypeDef;
  keys: string[];
  weight: number;
  /** The grammatical subject is the relation's target ("Dovecote hired Ravi"). */
  reverse: boolean;
}

export interface TriggerHit {
  trigger: Trigger;
  first: number;
  last: number;
  /** Followed by "by": the agent comes after it and the sides swap. */
  passive: boolean;
}

const cache = new Map<string, string[]>();

/** Regular inflections, for words compromise does not conjugate ("co-invent"). */
function inflect(word: string): string[] {
  const cached = cache.get(word);
  if (cached) return cached;
  const stem = word.endsWith('e') ? word.slice(0, -1) : word;
  const out = new Set([
    word,
    ...formsOf(word),
    `${word}s`,
    word.endsWith('e') ? `${word}d` : `${word}ed`,
    `${stem}ing`,
  ]);
  if (/[^aeiou]y$/u.test(word)) for (const f of [`${word.slice(0, -1)}ies`, `${word.slice(0, -1)}ied`]) out.add(f);
  const result = [...out].sort();
  cache.set(word, result);
  return result;
}

/** One way a relation is said, its head word in one verb form. */
export interface RelationPhrase {
  keys: string[];
  weight: number;
  reverse: boolean;
  /** Where it comes from: the type's declared patterns, its name read as words, or the English lexicon. */
  source: 'pattern' | 'name' | 'english';
}

/** Every way a relationship type is said: its patterns, its name as words and the lexicon's verbs, in every form. */
export function relationPhrases(rel: Pick<RelationshipTypeDef, 'type' | 'patterns'>): RelationPhrase[] {
  const phrases = [
    ...(rel.patterns ?? []).map((phrase) => ({ phrase, weight: 1, reverse: false, source: 'pattern' as const })),
    { phrase: defaultPhrase(rel.type), weight: 0.9, reverse: false, source: 'name' as const },
    ...(TRIGGERS[rel.type] ?? []).map((t) => ({
      phrase: t.phrase,
      weight: t.weight ?? 1,
      reverse: t.reverse ?? false,
      source: 'english' as const,
    })),
  ];
  const out: RelationPhrase[] = [];
  for (const { phrase, weight, reverse, source } of phrases) {
    const keys = phrase
      .split(/\s+/u)
      .map(normalizeName)
      .filter((k) => k !== '');
    const [head, ...rest] = keys;
    if (head === undefined) continue;
    const heads =
      head === 'a' || (rest.length > 0 && ['of', 'to'].includes(rest[0] as string) && head === 'part')
        ? [head]
        : inflect(head);
    for (const form of heads) out.push({ keys: [form, ...rest], weight, reverse, source });
  }
  return out;
}

export function compileTriggers(shape: ShapeDef): Trigger[] {
  const labels = new Set(shape.entity_types.map((t) => t.label));
  const best = new Map<string, Trigger>();
  for (const rel of shape.relationship_types) {
    if (!labels.has(rel.from) || !labels.has(rel.to)) continue;
    for (const { keys, weight, reverse } of relationPhrases(rel)) {
      const id = `${rel.type}|${keys.join(' ')}|${reverse}`;
      const seen = best.get(id);
      if (!seen || seen.weight < weight) best.set(id, { rel, keys, weight, reverse });
    }
  }
  return [...best.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, t]) => t);
}

/** Every place a trigger occurs inside one sentence; a longer phrase wins where two overlap. */
export function findTriggerHits(tokens: Token[], triggers: Trigger[]): TriggerHit[] {
  const byHead = new Map<string, Trigger[]>();
  for (const t of triggers) byHead.set(t.keys[0] as string, [...(byHead.get(t.keys[0] as string) ?? []), t]);
  const hits: TriggerHit[] = [];
  tokens.forEach((token, i) => {
    if (token.capitalised && i > 0 && tokens[i - 1]?.sentence === token.sentence) return;
    for (const trigger of byHead.get(token.key) ?? []) {
      const last = i + trigger.keys.length - 1;
      const matches = trigger.keys.every(
        (key, k) => tokens[i + k]?.key === key && tokens[i + k]?.sentence === token.sentence,
      );
      if (!matches) continue;
      const passive =
        tokens[last + 1]?.key === 'by' && tokens[last + 1]?.sentence === token.sentence && !trigger.keys.includes('by');
      hits.push({ trigger, first: i, last, passive });
    }
  });
  // "based in" inside "headquartered in"? no; but "works" inside "works for": keep the longest per start and type.
  const byStart = new Map<number, TriggerHit[]>();
  for (const h of hits) byStart.set(h.first, [...(byStart.get(h.first) ?? []), h]);
  const longest = Math.max(0, ...triggers.map((t) => t.keys.length));
  return hits.filter((h) => {
    for (let s = h.first - longest; s <= h.first; s++) {
      if (
        (byStart.get(s) ?? []).some(
          (o) =>
            o !== h &&
            o.trigger.rel.type === h.trigger.rel.type &&
            o.last >= h.last &&
            o.last - o.first > h.last - h.first,
        )
      )
        return false;
    }
    return true;
  });
}
