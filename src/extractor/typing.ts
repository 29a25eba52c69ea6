// Types a name by the evidence around and inside it, each source adding to a category's score:
// the name's own last word ("Inc.", "Summit", "University"), the noun right after it ("the
// Threnody compiler"), an apposition (", a robotics firm"), a title or role before it ("Dr.",
// "director"), what compromise's lexicon knows (first names, cities, known companies), the
// preposition before it, the slot of a relation phrase it fills ("works for X": X is an
// organization) and the same name's other mentions in the paragraph. The best-scoring category
// wins when it reaches MIN_SCORE; its margin over the runner-up sets the confidence.
import {
  CATEGORIES,
  type Category,
  CONCEPT_NOUNS,
  EVENT_HEADS,
  EVENT_NOUNS,
  ORG_FIRST,
  ORG_HEADS,
  ORG_NOUNS,
  PERSON_RELATIONS,
  PERSON_TITLES,
  PERSON_VERBS,
  PLACE_HEADS,
  PLACE_MODIFIERS,
  PLACE_NOUNS,
  PRODUCT_NOUNS,
  ROLE_NOUNS,
} from './lexicon.js';
import type { Span } from './mentions.js';
import { normalizeName } from './normalize.js';
import type { Token } from './tokenize.js';

export type Scores = Record<Category, number>;
export const MIN_SCORE = 1;

export const emptyScores = (): Scores => ({ Person: 0, Organization: 0, Place: 0, Product: 0, Event: 0, Concept: 0 });

const NOUN_CLASSES: [Set<string>, Category][] = [
  [PLACE_NOUNS, 'Place'],
  [ORG_NOUNS, 'Organization'],
  [PRODUCT_NOUNS, 'Product'],
  [EVENT_NOUNS, 'Event'],
  [CONCEPT_NOUNS, 'Concept'],
  [ROLE_NOUNS, 'Person'],
];
const DETERMINERS = new Set(['a', 'an', 'the', 'its', 'his', 'her', 'their', 'our']);

function classOf(key: string | undefined): Category | undefined {
  if (key === undefined) return undefined;
  for (const [words, category] of NOUN_CLASSES) if (words.has(key)) return category;
  return undefined;
}

/** ", a robotics firm", ", an app created by", ", the chief executive of": the noun that says what it is. */
function appositionClass(text: string, tokens: Token[], span: Span): Category | undefined {
  const last = tokens[span.last] as Token;
  const following = tokens[span.last + 1];
  if (!following || !/^\.?\s*,\s*$/u.test(text.slice(span.end, following.start))) return undefined;
  // ", who leads", ", chief technology officer of": a person; a role needs no article.
  if (following.key === 'who') return 'Person';
  for (let i = span.last + 1; i <= span.last + 4 && !DETERMINERS.has(following.key); i++) {
    const t = tokens[i];
    if (!t || t.capitalised || t.sentence !== last.sentence) break;
    if (['of', 'at', 'for'].includes(t.key))
      return tokens.slice(span.last + 1, i).some((w) => ROLE_NOUNS.has(w.key)) ? 'Person' : undefined;
  }
  if (!DETERMINERS.has(following.key)) return undefined;
  for (let i = span.last + 2; i <= span.last + 5; i++) {
    const t = tokens[i];
    if (!t || t.sentence !== last.sentence) return undefined;
    if (t.capitalised && (t.tags.has('Demonym') || t.tags.has('Adjective') || t.tags.has('Organization'))) continue;
    if (t.capitalised) return undefined;
    const c = classOf(t.key);
    if (c) return c;
    if (t.breakAfter) return undefined;
  }
  return undefined;
}

export interface TypingContext {
  text: string;
  tokens: Token[];
  /** Shape description words → category, for shapes whose labels say more than ours. */
  cues: ReadonlyMap<string, Category>;
}

/** Evidence inside a span (its words, compromise's lexicon) and around it (context). */
export interface SpanEvidence {
  inside: Scores;
  around: Scores;
}

export function spanScores(ctx: TypingContext, span: Span): SpanEvidence {
  const { tokens, text } = ctx;
  const s = emptyScores();
  const a = emptyScores();
  if (span.concept) {
    a.Concept += 3;
    return { inside: s, around: a };
  }
  const words = tokens.slice(span.first, span.last + 1);
  const firstKey = words[0]?.key ?? '';
  const lastKey = words[words.length - 1]?.key ?? '';
  const multi = words.length > 1;
  const name = text.slice(span.start, span.end);
  if (ORG_HEADS.has(lastKey) || (ORG_FIRST.has(firstKey) && multi) || name.includes('&')) s.Organization += 3;
  if (EVENT_HEADS.has(lastKey)) s.Event += 3;
  if (/\b(1[5-9]|20)\d\d\b/u.test(name) && multi) s.Event += 1.5;
  if (PLACE_HEADS.has(lastKey) && multi) s.Place += 1.5;
  if (PRODUCT_NOUNS.has(lastKey) && multi) s.Product += 2;
  if (span.titled) s.Person += 3;
  if (words.some((w) => /^\p{Lu}$/u.test(w.text)) && /^\p{Lu}\. /u.test(name)) s.Person += 2;
  // compromise's lexicon: first names, surnames, cities and countries, well-known companies.
  const tagged = (tag: string) => words.filter((w) => w.tags.has(tag)).length / words.length;
  s.Person += 1.5 * tagged('Person') + (words[0]?.tags.has('FirstName') && multi ? 1 : 0);
  s.Organization += 1.5 * tagged('Organization');
  s.Place += 1.5 * Math.max(tagged('Place'), tagged('City'), tagged('Country'));
  if (!multi && /^\p{Lu}{2,5}$/u.test(name)) s.Organization += 0.8;
  // Two or three plain capitalised words with nothing else to say are most often a person.
  if (multi && words.length <= 3 && words.every((w) => /^\p{Lu}\p{Ll}+(-\p{Lu}\p{Ll}+)?$/u.test(w.text)))
    s.Person += 0.6;
  // The noun right after the name ("the Threnody compiler", "the Ossery region").
  const next = tokens[span.last + 1];
  const after = next && !next.capitalised && !(tokens[span.last] as Token).breakAfter ? classOf(next.key) : undefined;
  if (after && after !== 'Person') a[after] += 2.5;
  const cue =
    next && !next.capitalised && !(tokens[span.last] as Token).breakAfter && !next.tags.has('Verb')
      ? ctx.cues.get(next.key)
      : undefined;
  if (cue) a[cue] += 1;
  const apposition = appositionClass(text, tokens, span);
  if (apposition) a[apposition] += 2.5;
  // The word before: a title or role ("director Lenna Voss"), a class noun ("her film Saltmarsh").
  const prev = tokens[span.first - 1];
  const prevClass = prev && !prev.capitalised && !prev.breakAfter ? classOf(prev.key) : undefined;
  if (prev && PERSON_TITLES.has(prev.key) && !prev.breakAfter) a.Person += 2;
  else if (prevClass) a[prevClass] += 2;
  const inWord = prev && PLACE_MODIFIERS.has(prev.key) ? tokens[span.first - 2] : prev;
  if (inWord && ['in', 'near', 'from', 'across', 'throughout'].includes(inWord.key) && !inWord.breakAfter) a.Place += 1;
  // "the CEO of Microsoft", "a researcher at Copperline Robotics".
  const linkAt = prev?.key === 'the' ? span.first - 2 : span.first - 1;
  const link = tokens[linkAt];
  const role = tokens[linkAt - 1];
  if (link && role && ['at', 'of', 'for', 'with'].includes(link.key) && ROLE_NOUNS.has(role.key)) a.Organization += 2;
  // "Ravi Okonkwo-Hale's colleague".
  if (/^['’]s?\s/u.test(text.slice(span.end, span.end + 3)) && PERSON_RELATIONS.has(next?.key ?? '')) a.Person += 1.5;
  if (prev && prev.key === 'at') a.Organization += 0.3;
  const verb = next && !(tokens[span.last] as Token).breakAfter ? next.key : '';
  if (PERSON_VERBS.has(verb) && multi && words.length <= 3 && !words.some((w) => /\d/u.test(w.text))) a.Person += 0.8;
  return { inside: s, around: a };
}

export function add(into: Scores, from: Scores, factor = 1): void {
  for (const c of CATEGORIES) into[c] += from[c] * factor;
}

export interface Decision {
  category: Category;
  confidence: number;
}

/** The winning category, or none when nothing reached MIN_SCORE. */
export function decide(scores: Scores, minScore = MIN_SCORE): Decision | undefined {
  const ranked = [...CATEGORIES].sort((a, b) => scores[b] - scores[a] || CATEGORIES.indexOf(a) - CATEGORIES.indexOf(b));
  const best = ranked[0] as Category;
  const top = scores[best];
  if (top < minScore) return undefined;
  const margin = top - scores[ranked[1] as Category];
  const confidence = Math.min(0.97, 0.55 + 0.08 * Math.min(top, 4) + 0.05 * Math.min(margin, 2));
  return { category: best, confidence: Math.round(confidence * 1000) / 1000 };
}

const top = (s: Scores): Category | undefined => {
  const best = [...CATEGORIES].sort((a, b) => s[b] - s[a])[0] as Category;
  return s[best] >= 0.5 ? best : undefined;
};

/**
 * Whether a name's own words and its context agree on what it is: 1 when both point to the
 * same category, 0.5 when only one of them says anything, 0 when they disagree.
 */
export function evidenceAgreement(e: SpanEvidence): number {
  const inside = top(e.inside);
  const around = top(e.around);
  if (inside && around) return inside === around ? 1 : 0;
  return 0.5;
}

export function total(e: SpanEvidence): Scores {
  const sum = emptyScores();
  add(sum, e.inside);
  add(sum, e.around);
  return sum;
}

export const surfaceKey = (text: string): string => normalizeName(text);
