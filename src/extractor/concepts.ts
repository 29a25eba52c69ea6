// Lower-case concept phrases, found only where the sentence says they are ideas: on either side
// of a part-of phrase ("deep learning is part of machine learning"), after "about" or "studied",
// before ", a method" and as "the theory of relativity".
import { CONCEPT_NOUNS } from './lexicon.js';
import { phraseEndingAt, phraseStartingAt, type Span } from './mentions.js';
import type { Token } from './tokenize.js';
import type { TriggerHit } from './triggers.js';

const SKIP_LEFT = new Set([
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'also',
  'in',
  'turn',
  'itself',
  'now',
  'really',
  'only',
  'still',
  'thus',
]);
const RELATIVES = new Set(['which', 'that']);
const TOPIC_WORDS = new Set([
  'about',
  'studied',
  'studies',
  'researched',
  'researches',
  'teaches',
  'taught',
  'co-invented',
  'pioneered',
  'proposed',
  'discovered',
]);
const DETERMINERS = new Set(['the', 'a', 'an']);

/** The concept before a part-of phrase, following "which"/"that" and ", a method" back to it. */
function leftConcept(tokens: Token[], text: string, index: number): Span | undefined {
  let i = index;
  while (i >= 0 && SKIP_LEFT.has(tokens[i]?.key ?? '')) i--;
  if (RELATIVES.has(tokens[i]?.key ?? '')) {
    i--;
    // "frequency hopping, a method that is part of": past the apposition to its head.
    const t = tokens[i];
    if (
      t &&
      CONCEPT_NOUNS.has(t.key) &&
      DETERMINERS.has(tokens[i - 1]?.key ?? '') &&
      /,\s*$/u.test(text.slice(tokens[i - 2]?.end ?? 0, tokens[i - 1]?.start ?? 0))
    )
      i -= 2;
  }
  return i >= 0 ? phraseEndingAt(tokens, i) : undefined;
}

export function conceptSpans(text: string, tokens: Token[], partOfHits: TriggerHit[]): Span[] {
  const out: Span[] = [];
  const push = (s: Span | undefined) => {
    if (s && !(s.first === s.last && CONCEPT_NOUNS.has(tokens[s.first]?.key ?? ''))) out.push(s);
  };
  for (const hit of partOfHits) {
    push(leftConcept(tokens, text, hit.first - 1));
    let right = hit.last + 1;
    if (DETERMINERS.has(tokens[right]?.key ?? '')) right++;
    push(phraseStartingAt(tokens, right));
  }
  tokens.forEach((t, i) => {
    if (TOPIC_WORDS.has(t.key) && !t.breakAfter)
      push(phraseStartingAt(tokens, DETERMINERS.has(tokens[i + 1]?.key ?? '') ? i + 2 : i + 1));
    // "frequency hopping, a method": the phrase before an apposition that calls it an idea.
    const det = tokens[i + 1];
    if (
      det &&
      DETERMINERS.has(det.key) &&
      /^\s*,\s*$/u.test(text.slice(t.end, det.start)) &&
      CONCEPT_NOUNS.has(tokens[i + 2]?.key ?? '')
    )
      push(phraseEndingAt(tokens, i));
    if (t.key === 'theory' && tokens[i + 1]?.key === 'of' && !t.capitalised) push(phraseStartingAt(tokens, i));
  });
  return out;
}
