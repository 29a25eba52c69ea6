// Turns text into tagged tokens with exact character offsets and our own sentence boundaries.
// compromise does the word splitting and part-of-speech tagging; offsets are recomputed here from
// its lossless pre/text/post pieces so every later step can cite text.slice(start, end) exactly.
import nlp from 'compromise';
import { normalizeName } from './normalize.js';

export interface Token {
  text: string;
  /** normalizeName(text): the form patterns, cues and gazetteers compare against. */
  key: string;
  start: number;
  end: number;
  tags: ReadonlySet<string>;
  /** Starts with an upper-case letter, or is camel-cased like "iPhone". */
  capitalised: boolean;
  sentence: number;
  /** Punctuation, a possessive or a sentence end follows: a name never runs across it. */
  breakAfter: boolean;
  /** Joined to the next token without a space ("Berners-Lee"): one word to a reader. */
  gluedToNext: boolean;
}

export interface Sentence {
  start: number;
  end: number;
  firstToken: number;
  lastToken: number;
}

export interface Tokenized {
  tokens: Token[];
  sentences: Sentence[];
}

/** Abbreviations whose full stop does not end a sentence ("Dr. Smith", "St. Louis"). */
const NON_FINAL_ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'mt',
  'sr',
  'gen',
  'col',
  'capt',
  'lt',
  'sgt',
  'rev',
  'hon',
  'vs',
  'no',
  'fig',
  'approx',
]);
const POSSESSIVE = /['’]s?$/u;
/** "C#", "C++": compromise leaves these marks in the following whitespace. */
const GLUED_MARKS = /^[#+]+/u;
const NAME_SAFE_GAP = /^[\s.\-–]*$/u;

interface RawTerm {
  pre: string;
  text: string;
  post: string;
  tags: ReadonlySet<string>;
  docEnd: boolean;
}

function rawTerms(text: string): RawTerm[] {
  const out: RawTerm[] = [];
  for (const sentence of nlp(text).docs) {
    sentence.forEach((term, i) => {
      out.push({
        pre: term.pre,
        text: term.text,
        post: term.post,
        tags: term.tags ?? new Set<string>(),
        docEnd: i === sentence.length - 1,
      });
    });
  }
  return out;
}

function endsSentence(term: RawTerm, next: RawTerm | undefined): boolean {
  if (!next) return true;
  const gap = term.post + next.pre;
  if (term.docEnd || /\n[^\S\n]*\n/u.test(gap) || /[!?]/u.test(term.post)) return true;
  if (!term.post.includes('.')) return false;
  const word = normalizeName(term.text);
  if (NON_FINAL_ABBREVIATIONS.has(word) || /^\p{Lu}$/u.test(term.text)) return false;
  return !/^[\p{Ll}\d]/u.test(next.text);
}

export function tokenize(text: string): Tokenized {
  const raw = rawTerms(text);
  const tokens: Token[] = [];
  const sentences: Sentence[] = [];
  let cursor = 0;
  let sentenceStart = 0;
  raw.forEach((term, i) => {
    const next = raw[i + 1];
    cursor += term.pre.length;
    let start = cursor;
    if (text.slice(start, start + term.text.length) !== term.text) {
      // compromise altered the text (should not happen): find it rather than drift.
      const found = text.indexOf(term.text, cursor);
      start = found >= 0 ? found : cursor;
    }
    cursor = start + term.text.length + term.post.length;
    let tokenText = term.text;
    let post = term.post;
    const glued = GLUED_MARKS.exec(post);
    if (glued) {
      tokenText += glued[0];
      post = post.slice(glued[0].length);
    }
    const possessive = term.tags.has('Possessive') && POSSESSIVE.test(tokenText);
    if (possessive) tokenText = tokenText.replace(POSSESSIVE, '');
    const final = endsSentence(term, next);
    tokens.push({
      text: tokenText,
      key: normalizeName(tokenText),
      start,
      end: start + tokenText.length,
      tags: term.tags,
      capitalised: /^\p{Ll}*\p{Lu}/u.test(tokenText),
      sentence: sentences.length,
      breakAfter: final || possessive || !NAME_SAFE_GAP.test(post + (next?.pre ?? '')),
      gluedToNext: !final && !possessive && next !== undefined && /^[-–]$/u.test(post + next.pre),
    });
    if (final) {
      const last = tokens[i] as Token;
      const first = tokens[sentenceStart] as Token;
      const trailing = /^\S*/u.exec(post)?.[0] ?? '';
      sentences.push({ start: first.start, end: last.end + trailing.length, firstToken: sentenceStart, lastToken: i });
      sentenceStart = i + 1;
    }
  });
  return { tokens, sentences };
}

/** The sentence as written, for relationship evidence. */
export function sentenceText(text: string, sentence: Sentence): string {
  return text.slice(sentence.start, sentence.end).trim();
}
