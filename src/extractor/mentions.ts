// Finds the spans that may name something, before anything is typed: capitalised names kept
// whole ("J. K. Rowling", "Bramwell & Ford", "Lumenfold Inc.", "2012 Summer Olympics", "The
// Legend of Zelda") and lower-case concept phrases where the sentence says they are ideas
// ("deep learning is part of machine learning", "studied radioactivity").
import { ABBREVIATED_SUFFIXES, CONCEPT_NOUNS, EVENT_HEADS, PERSON_TITLES, ROLE_NOUNS } from './lexicon.js';
import type { Token } from './tokenize.js';

export interface Span {
  first: number;
  last: number;
  start: number;
  end: number;
  /** A person's title stood right before it ("Dr. Anselm Krauss"). */
  titled: boolean;
  /** Lower-case phrase found in a concept slot. */
  concept: boolean;
}

/** Capitalised words that never start or end a name. */
export const FUNCTION_WORDS = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'our',
  'their',
  'his',
  'her',
  'its',
  'my',
  'your',
  'at',
  'in',
  'on',
  'for',
  'from',
  'by',
  'with',
  'after',
  'before',
  'later',
  'but',
  'and',
  'or',
  'while',
  'when',
  'if',
  'as',
  'since',
  'during',
  'meanwhile',
  'nothing',
  'nobody',
  'no',
  'yes',
  'he',
  'she',
  'it',
  'they',
  'we',
  'i',
  'you',
  'there',
  'then',
  'today',
  'yesterday',
  'also',
  'however',
  'although',
  'because',
  'so',
  'of',
  'to',
  'into',
  'under',
  'over',
  'between',
  'every',
  'each',
  'all',
  'some',
  'many',
  'most',
  'both',
  'either',
  'neither',
  'what',
  'who',
  'which',
  'where',
  'why',
  'how',
  'once',
  'not',
  'never',
]);
const CONNECTORS = new Set([
  'of',
  '&',
  'de',
  'du',
  'la',
  'le',
  'del',
  'der',
  'van',
  'von',
  'da',
  'di',
  'y',
  'den',
  'bin',
  'al',
]);
const NOT_NAME_START = [
  'Determiner',
  'Preposition',
  'Conjunction',
  'Pronoun',
  'Adverb',
  'QuestionWord',
  'Copula',
  'Modal',
  'Auxiliary',
];
const COMMON_WORD_TAGS = [
  ...NOT_NAME_START,
  'Verb',
  'Adjective',
  'Plural',
  'Uncountable',
  'Date',
  'Month',
  'WeekDay',
  'Value',
  'Actor',
  'Demonym',
];
const STRONG_NAME_TAGS = ['ProperNoun', 'Person', 'Organization', 'Place', 'Acronym', 'FirstName', 'LastName'];

const isYear = (t: Token | undefined): boolean => t !== undefined && /^(1[5-9]|20)\d\d$/u.test(t.text);
const isInitial = (t: Token | undefined): boolean => t !== undefined && /^\p{Lu}$/u.test(t.text);

function capitalisedWord(t: Token): boolean {
  return t.capitalised && !FUNCTION_WORDS.has(t.key) && /\p{L}/u.test(t.text);
}

/** The text between two tokens is nothing a name cannot hold: spaces, a dot, a hyphen or "&". */
function joinable(text: string, a: Token, b: Token): boolean {
  if (a.sentence !== b.sentence) return false;
  return !a.breakAfter || /^\s?&\s?$/u.test(text.slice(a.end, b.start));
}

function continuesName(t: Token): boolean {
  return capitalisedWord(t) || /^\d[\d.]*$/u.test(t.text) || /^\p{Lu}[\p{L}\d/]*$/u.test(t.text);
}

function sentenceStartsName(tokens: Token[], i: number, text: string, capitalisedElsewhere: Set<string>): boolean {
  const t = tokens[i] as Token;
  if (FUNCTION_WORDS.has(t.key)) return false;
  if (STRONG_NAME_TAGS.some((tag) => t.tags.has(tag)) && !NOT_NAME_START.some((tag) => t.tags.has(tag))) return true;
  const next = tokens[i + 1];
  if (next && continuesName(next) && joinable(text, t, next)) return !NOT_NAME_START.some((tag) => t.tags.has(tag));
  // "Spotify is headquartered", "Tallyhop, an app": a singular noun compromise knows nothing else of.
  if (t.tags.has('Noun') && t.tags.has('Singular') && !COMMON_WORD_TAGS.some((tag) => t.tags.has(tag))) return true;
  return capitalisedElsewhere.has(t.key);
}

/** Capitalised names, whole; titles are left out but remembered. */
export function nameSpans(text: string, tokens: Token[]): Span[] {
  const capitalisedElsewhere = new Set<string>();
  tokens.forEach((t, i) => {
    if (i > 0 && tokens[i - 1]?.sentence === t.sentence && capitalisedWord(t)) capitalisedElsewhere.add(t.key);
  });
  const spans: Span[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    const sentenceFirst = i === 0 || tokens[i - 1]?.sentence !== t.sentence;
    if (!capitalisedWord(t) && !(t.capitalised && /^\p{Lu}/u.test(t.text) && isInitial(t))) continue;
    if (sentenceFirst && !sentenceStartsName(tokens, i, text, capitalisedElsewhere)) continue;
    // "CEO of Microsoft": a role is not part of the name after it.
    if (
      (ROLE_NOUNS.has(t.key) || PERSON_TITLES.has(t.key)) &&
      !(tokens[i + 1] && continuesName(tokens[i + 1] as Token))
    )
      continue;
    // "April 2009", "Monday": dates are not names.
    if (t.tags.has('Month') || t.tags.has('WeekDay') || t.tags.has('Date')) continue;
    // "Finnish", "American" alone describe, they do not name.
    const nextToken = tokens[i + 1];
    const alone = !(nextToken && continuesName(nextToken) && joinable(text, t, nextToken));
    const modifies = nextToken !== undefined && !nextToken.capitalised && !t.breakAfter && nextToken.tags.has('Noun');
    if (
      alone &&
      (t.tags.has('Demonym') ||
        (modifies && (/(?:ish|ese|ian|can)$/u.test(t.key) || ['a', 'an'].includes(tokens[i - 1]?.key ?? ''))))
    )
      continue;
    let first = i;
    let titled = false;
    while (
      PERSON_TITLES.has((tokens[first] as Token).key) &&
      tokens[first + 1] &&
      capitalisedWord(tokens[first + 1] as Token) &&
      joinable(text, tokens[first] as Token, tokens[first + 1] as Token)
    ) {
      first++;
      titled = true;
    }
    let last = first;
    for (;;) {
      const cur = tokens[last] as Token;
      const next = tokens[last + 1];
      const after = tokens[last + 2];
      if (!next || !joinable(text, cur, next)) break;
      if (continuesName(next) || (next.key === '' && after && continuesName(after))) last++;
      else if (
        (CONNECTORS.has(next.key) || next.text === '&') &&
        after &&
        joinable(text, next, after) &&
        capitalisedWord(after)
      )
        last += 2;
      else break;
    }
    // "2012 Summer Olympics": a year before an event name belongs to it.
    if (
      EVENT_HEADS.has((tokens[last] as Token).key) &&
      isYear(tokens[first - 1]) &&
      joinable(text, tokens[first - 1] as Token, tokens[first] as Token)
    )
      first--;
    let end = (tokens[last] as Token).end;
    if (ABBREVIATED_SUFFIXES.has((tokens[last] as Token).key) && last > first && text[end] === '.') end++;
    spans.push({ first, last, start: (tokens[first] as Token).start, end, titled, concept: false });
    i = last;
  }
  return spans;
}

const NP_STOP = new Set([
  'a',
  'an',
  'the',
  'this',
  'that',
  'which',
  'who',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'and',
  'or',
  'but',
  'of',
  'in',
  'to',
  'by',
  'for',
  'with',
  'at',
  'on',
  'about',
  'as',
  'not',
  'never',
  'it',
  'its',
  'their',
  'his',
  'her',
  'has',
  'have',
  'had',
  'does',
  'did',
  'also',
  'in turn',
  'turn',
  'studied',
  'while',
]);
const NP_BLOCK = ['Verb', 'Pronoun', 'Determiner', 'Preposition', 'Conjunction', 'Adverb', 'Value'];

function npWord(t: Token | undefined, allowCapital: boolean): boolean {
  if (!t || NP_STOP.has(t.key) || !/^\p{L}[\p{L}-]*$/u.test(t.text)) return false;
  if (t.capitalised && !allowCapital) return false;
  return (
    !NP_BLOCK.some((tag) => t.tags.has(tag)) || t.tags.has('Gerund') || t.tags.has('Noun') || t.tags.has('Uncountable')
  );
}

/** A lower-case noun phrase ending at token `last` (walking left), at most 4 words. */
export function phraseEndingAt(tokens: Token[], last: number): Span | undefined {
  let first = last;
  const sentence = tokens[last]?.sentence;
  while (
    first - 1 >= 0 &&
    last - first < 3 &&
    tokens[first - 1]?.sentence === sentence &&
    !tokens[first - 1]?.breakAfter &&
    npWord(tokens[first - 1], first - 1 === 0 || tokens[first - 2]?.sentence !== sentence)
  )
    first--;
  return npWord(tokens[last], last === first && (last === 0 || tokens[last - 1]?.sentence !== sentence))
    ? spanOf(tokens, first, last)
    : undefined;
}

/** A lower-case noun phrase starting at token `first` (walking right), "theory of X" included. */
export function phraseStartingAt(tokens: Token[], first: number): Span | undefined {
  if (!npWord(tokens[first], false)) return undefined;
  let last = first;
  const sentence = tokens[first]?.sentence;
  for (;;) {
    const cur = tokens[last] as Token;
    const next = tokens[last + 1];
    if (!next || cur.breakAfter || next.sentence !== sentence || last - first >= 3) break;
    if (npWord(next, false)) last++;
    else if (next.key === 'of' && CONCEPT_NOUNS.has(cur.key) && npWord(tokens[last + 2], false)) last += 2;
    else break;
  }
  return spanOf(tokens, first, last);
}

function spanOf(tokens: Token[], first: number, last: number): Span {
  return {
    first,
    last,
    start: (tokens[first] as Token).start,
    end: (tokens[last] as Token).end,
    titled: false,
    concept: true,
  };
}
