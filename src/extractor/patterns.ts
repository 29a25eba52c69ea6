// Verb forms of relation phrases ("works" → work, works, worked, working) and the phrase a
// relationship type's name reads as (WORKS_FOR → "works for"), for triggers.ts.
import nlp from 'compromise';

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
