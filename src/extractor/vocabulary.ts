// Reads what a shape says about its types (labels, descriptions, listed names) into lookup tables,
// so the built-in extractor can type a phrase by what the text calls it.
import nlp from 'compromise';
import type { ShapeDef } from '../shapes/types.js';
import { normalizeName } from './normalize.js';

/** Description nouns too vague to say what a phrase is. */
const VAGUE_WORDS = new Set([
  'thing',
  'something',
  'someone',
  'anything',
  'type',
  'kind',
  'example',
  'instance',
  'entity',
  'item',
  'object',
  'part',
  'name',
  'being',
  'way',
  'such',
  'other',
  'some',
  'graph',
  'node',
]);

/**
 * Descriptions are mostly noun lists ("a product, project or tool") and compromise often reads a
 * listed noun as a verb ("project", "meeting"), so we keep every word that is not clearly
 * something else.
 */
const NOT_NOUNS = [
  'Determiner',
  'Conjunction',
  'Preposition',
  'Pronoun',
  'Adverb',
  'Adjective',
  'Copula',
  'Auxiliary',
  'Modal',
  'PastTense',
  'Participle',
  'Value',
  'QuestionWord',
];

export interface Vocabulary {
  /** Cue word, lower case, singular and plural → shape label. */
  cues: Map<string, string>;
  /** Listed names (an enum on the identity property) as token keys, indexed by their first key. */
  gazetteer: Map<string, { keys: string[]; type: string }[]>;
}

function labelWords(label: string): string[] {
  return label
    .split(/(?<=[\p{Ll}\d])(?=\p{Lu})|[_\s-]+/u)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length >= 3);
}

function withPlural(word: string): string[] {
  if (/[^aeiou]y$/u.test(word)) return [word, `${word.slice(0, -1)}ies`];
  if (/(s|x|z|ch|sh)$/u.test(word)) return [word, `${word}es`];
  return [word, `${word}s`];
}

function descriptionNouns(description: string | undefined): string[] {
  if (!description) return [];
  const nouns = new Set<string>();
  for (const sentence of nlp(description).docs) {
    for (const term of sentence) {
      const tags = term.tags ?? new Set<string>();
      if (
        ![...NOT_NOUNS].some((tag) => tags.has(tag)) &&
        /^\p{Ll}{4,}$/u.test(term.normal) &&
        !VAGUE_WORDS.has(term.normal)
      )
        nouns.add(term.normal);
    }
  }
  return [...nouns].sort();
}

function readCues(shape: ShapeDef): Map<string, string> {
  const cues = new Map<string, string>();
  // One-word labels first, so "product" means Product even when SoftwareProduct also exists.
  const byWordCount = [...shape.entity_types].sort((a, b) => labelWords(a.label).length - labelWords(b.label).length);
  for (const type of byWordCount) {
    for (const word of labelWords(type.label))
      for (const form of withPlural(word)) if (!cues.has(form)) cues.set(form, type.label);
  }
  // A description word is a cue only when exactly one type uses it and no label claims it.
  const claimedBy = new Map<string, Set<string>>();
  for (const type of shape.entity_types) {
    for (const word of descriptionNouns(type.description)) {
      for (const form of withPlural(word)) claimedBy.set(form, (claimedBy.get(form) ?? new Set()).add(type.label));
    }
  }
  for (const [form, labels] of [...claimedBy].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const only = labels.size === 1 ? [...labels][0] : undefined;
    if (only !== undefined && !cues.has(form)) cues.set(form, only);
  }
  return cues;
}

function readGazetteer(shape: ShapeDef): Vocabulary['gazetteer'] {
  const byFirst: Vocabulary['gazetteer'] = new Map();
  for (const type of shape.entity_types) {
    const identity = type.identity || 'name';
    for (const property of type.properties) {
      if ((property.name !== 'name' && property.name !== identity) || !property.enum) continue;
      for (const value of property.enum) {
        const keys = value
          .split(/[\s\-–]+/u)
          .map(normalizeName)
          .filter((k) => k !== '');
        const first = keys[0];
        if (first === undefined) continue;
        byFirst.set(first, [...(byFirst.get(first) ?? []), { keys, type: type.label }]);
      }
    }
  }
  return byFirst;
}

export function readVocabulary(shape: ShapeDef): Vocabulary {
  return { cues: readCues(shape), gazetteer: readGazetteer(shape) };
}
