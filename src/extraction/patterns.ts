// Relationship phrases from the shape ("works for", "employed by") compiled into token sequences
// with their verb forms, and found in tokenized text once, for both relationship reading and
// (in agentic_plus) typing the phrases around them.
import nlp from 'compromise';
import type { RelationshipTypeDef, ShapeDef } from '../shapes/types.js';
import { normalizeName } from './normalize.js';
import type { Tokenized } from './tokens.js';

export interface CompiledPattern {
  rel: RelationshipTypeDef;
  keys: string[];
  /** 1 for a phrase the shape lists, 0.9 for the one derived from the type name. */
  weight: number;
}

export interface PatternHit {
  pattern: CompiledPattern;
  first: number;
  last: number;
}

const verbForms = new Map<string, string[]>();

/** "works" → works, work, worked, working; memoised because compromise conjugation is slow. */
export function formsOf(word: string): string[] {
  const cached = verbForms.get(word);
  if (cached) return cached;
  const forms = new Set([word]);
  for (const conjugation of nlp(`they ${word}`).verbs().conjugate() as Record<string, unknown>[]) {
    for (const tense of ['Infinitive', 'PresentTense', 'PastTense', 'Gerund']) {
      const form = conjugation[tense];
      if (typeof form === 'string' && /^\p{L}+$/u.test(form)) forms.add(form.toLowerCase());
    }
  }
  const sorted = [...forms].sort();
  verbForms.set(word, sorted);
  return sorted;
}

export function defaultPhrase(relType: string): string {
  return relType.toLowerCase().split(/_+/u).filter(Boolean).join(' ');
}

export function compilePatterns(shape: ShapeDef): CompiledPattern[] {
  const labels = new Set(shape.entity_types.map((t) => t.label));
  const out: CompiledPattern[] = [];
  for (const rel of shape.relationship_types) {
    if (!labels.has(rel.from) || !labels.has(rel.to)) continue;
    const best = new Map<string, number>();
    const phrases: [string, number][] = [...(rel.patterns ?? []).map((p): [string, number] => [p, 1]), [defaultPhrase(rel.type), 0.9]];
    for (const [phrase, weight] of phrases) {
      const keys = phrase.split(/\s+/u).map(normalizeName).filter((k) => k !== '');
      const [head, ...rest] = keys;
      if (head === undefined) continue;
      for (const form of formsOf(head)) {
        const variant = [form, ...rest].join(' ');
        best.set(variant, Math.max(best.get(variant) ?? 0, weight));
      }
    }
    for (const [variant, weight] of [...best].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push({ rel, keys: variant.split(' '), weight });
  }
  return out;
}

/** Every place a pattern occurs inside one sentence, in text order. */
export function findPatternHits({ tokens }: Tokenized, patterns: CompiledPattern[]): PatternHit[] {
  const byHead = new Map<string, CompiledPattern[]>();
  for (const p of patterns) byHead.set(p.keys[0] as string, [...(byHead.get(p.keys[0] as string) ?? []), p]);
  const hits: PatternHit[] = [];
  tokens.forEach((token, i) => {
    for (const pattern of byHead.get(token.key) ?? []) {
      const last = i + pattern.keys.length - 1;
      const matches = pattern.keys.every((key, k) => tokens[i + k]?.key === key && tokens[i + k]?.sentence === token.sentence);
      if (matches) hits.push({ pattern, first: i, last });
    }
  });
  return hits;
}
