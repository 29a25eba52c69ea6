// Proposes typed token spans from four evidence sources and picks non-overlapping ones, strongest
// evidence first, so one stretch of text is never two entities.
import type { Token } from './tokens.js';
import type { NerCategory, Vocabulary } from './vocabulary.js';
import type { PatternHit } from './patterns.js';

export type CandidateSource = 'gazetteer' | 'cue' | 'ner' | 'inferred';

export interface Candidate {
  first: number;
  last: number;
  type: string;
  source: CandidateSource;
  confidence: number;
  /** Where the mention ends when it is not the last token's end ("Inc." keeps its full stop). */
  end?: number;
}

export interface Span {
  first: number;
  last: number;
}

const PRIORITY: Record<CandidateSource, number> = { gazetteer: 4, cue: 3, ner: 2, inferred: 1 };
const LEADING_NOISE = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those', 'our', 'their', 'his', 'her', 'its', 'my', 'your']);
const CONNECTORS = new Set(['of', '&', 'de', 'du', 'la', 'le', 'del', 'der', 'van', 'von', 'da', 'di', 'y']);
const NAMING_VERBS = new Set(['called', 'named']);
const AUXILIARIES = new Set(['is', 'was', 'are', 'were', 'has', 'had', 'have', 'been', 'also']);
const NER_CONFIDENCE: Record<NerCategory, [single: number, multi: number]> = { Person: [0.65, 0.85], Organization: [0.7, 0.8], Place: [0.75, 0.8] };

const isProperWord = (t: Token): boolean => t.capitalised && !t.tags.has('Pronoun') && !LEADING_NOISE.has(t.key);
/** Inside a name "I" is a numeral ("Mark I Compiler"), not the pronoun. */
const continuesName = (t: Token): boolean => isProperWord(t) || t.text === 'I' || /^\d+$/u.test(t.text);
/** Token i and token i + 1 can belong to one name: no punctuation or sentence end between them. */
const joins = (tokens: Token[], i: number): boolean => {
  const token = tokens[i];
  return token !== undefined && i + 1 < tokens.length && !token.breakAfter;
};

/** Drops leading articles, titles and lower-case words, and trailing lower-case words. */
function trim(tokens: Token[], first: number, last: number): Span | undefined {
  const t = (i: number) => tokens[i] as Token;
  while (first <= last && (!isProperWord(t(first)) || t(first).tags.has('Honorific'))) first++;
  while (last >= first && !isProperWord(t(last)) && !(/^\d+$/u.test(t(last).text) && last > first)) last--;
  if (first > last) return undefined;
  // compromise may tag only half of a hyphenated name ("Berners-Lee"): take the whole word.
  while (first > 0 && t(first - 1).gluedToNext) first--;
  while (t(last).gluedToNext && last + 1 < tokens.length) last++;
  return { first, last };
}

/** Runs compromise tagged as people, organisations or places, split at lower-case gaps. */
export function nerCandidates(tokens: Token[], vocab: Vocabulary): Candidate[] {
  const out: Candidate[] = [];
  for (const [category, type] of vocab.ner) {
    const inCategory = (t: Token) => t.tags.has(category);
    for (let i = 0; i < tokens.length; i++) {
      if (!inCategory(tokens[i] as Token)) continue;
      let j = i;
      while (joins(tokens, j) && inCategory(tokens[j + 1] as Token)) j++;
      // "Ada Lovelace's": compromise drops the Person tag from a possessive surname.
      const next = tokens[j + 1];
      if (category === 'Person' && joins(tokens, j) && tokens[j]?.tags.has('FirstName') && next && isProperWord(next) && !next.tags.has('Organization') && !next.tags.has('Place')) j++;
      let segmentStart = i;
      for (let k = i; k <= j + 1; k++) {
        const token = tokens[k];
        if (k <= j && token && (token.capitalised || CONNECTORS.has(token.key) || /^\d+$/u.test(token.text))) continue;
        const span = trim(tokens, segmentStart, k - 1);
        // A lone first name glued to other capitalised words ("Mark I Compiler") is part of
        // some other name, not a person.
        const follower = span && span.first === span.last && joins(tokens, span.last) ? tokens[span.last + 1] : undefined;
        if (span && !(category === 'Person' && follower && continuesName(follower))) {
          const [single, multi] = NER_CONFIDENCE[category];
          out.push({ ...span, type, source: 'ner', confidence: span.last > span.first ? multi : single });
        }
        segmentStart = k + 1;
      }
      i = j;
    }
  }
  return out;
}

/** Capitalised phrases ("Difference Engine", "Bank of America"), whatever compromise made of them. */
export function properRuns(tokens: Token[]): Span[] {
  const runs: Span[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const sentenceFirst = i === 0 || (tokens[i - 1] as Token).sentence !== token.sentence;
    if (!isProperWord(token) || (sentenceFirst && !token.tags.has('ProperNoun'))) continue;
    let j = i;
    for (;;) {
      const next = tokens[j + 1];
      const after = tokens[j + 2];
      if (!joins(tokens, j) || !next) break;
      if (continuesName(next)) j++;
      else if (CONNECTORS.has(next.key) && joins(tokens, j + 1) && after && isProperWord(after)) j += 2;
      else break;
    }
    runs.push({ first: i, last: j });
    i = j;
  }
  return runs;
}

/** "the Apollo project", "the product Apollo", "Apollo Project": the text says what it is. */
export function cueCandidates(tokens: Token[], runs: Span[], vocab: Vocabulary): Candidate[] {
  const out: Candidate[] = [];
  const lowerCue = (i: number): string | undefined => {
    const t = tokens[i];
    // A cue names what something is: "works" in "Ada works for" is a verb, not the noun "work".
    return t && !t.capitalised && !t.tags.has('Verb') ? vocab.cues.get(t.key) : undefined;
  };
  for (const run of runs) {
    const multi = run.last > run.first;
    const sentence = (tokens[run.first] as Token).sentence;
    const inside = multi ? vocab.cues.get((tokens[run.last] as Token).key) : undefined;
    const after = joins(tokens, run.last) ? lowerCue(run.last + 1) : undefined;
    let before = run.first - 1;
    if (NAMING_VERBS.has(tokens[before]?.key ?? '') && joins(tokens, before)) before--;
    const beforeCue = tokens[before]?.sentence === sentence && joins(tokens, before) ? lowerCue(before) : undefined;
    const type = inside ?? after ?? beforeCue;
    if (type) out.push({ ...run, type, source: 'cue', confidence: multi ? 0.75 : 0.7 });
  }
  return out;
}

/** Names the shape lists as the only allowed values of a type's identity. */
export function gazetteerCandidates(tokens: Token[], vocab: Vocabulary): Candidate[] {
  const out: Candidate[] = [];
  tokens.forEach((token, i) => {
    for (const entry of vocab.gazetteer.get(token.key) ?? []) {
      const same = entry.keys.every((key, k) => tokens[i + k]?.key === key && tokens[i + k]?.sentence === token.sentence);
      if (same) out.push({ first: i, last: i + entry.keys.length - 1, type: entry.type, source: 'gazetteer', confidence: 0.95 });
    }
  });
  return out;
}

/** agentic_plus: an untyped capitalised phrase right after "designed" is what CREATED points to. */
export function inferredCandidates(tokens: Token[], runs: Span[], hits: PatternHit[]): Candidate[] {
  const byFirst = new Map(runs.map((r) => [r.first, r]));
  const byLast = new Map(runs.map((r) => [r.last, r]));
  const out: Candidate[] = [];
  const push = (run: Span | undefined, type: string) => {
    if (run) out.push({ ...run, type, source: 'inferred', confidence: run.last > run.first ? 0.6 : 0.5 });
  };
  for (const { pattern, first, last } of hits) {
    let to = last + 1;
    if (LEADING_NOISE.has(tokens[to]?.key ?? '')) to++;
    push(byFirst.get(to), pattern.rel.to);
    let from = first - 1;
    for (let skipped = 0; skipped < 2 && AUXILIARIES.has(tokens[from]?.key ?? ''); skipped++) from--;
    push(byLast.get(from), pattern.rel.from);
  }
  return out;
}

/** Keeps the strongest candidates that do not overlap each other or anything already taken. */
export function selectCandidates(candidates: Candidate[], taken: Uint8Array): Candidate[] {
  const ranked = [...candidates].sort((a, b) =>
    PRIORITY[b.source] - PRIORITY[a.source] || (b.last - b.first) - (a.last - a.first) || a.first - b.first || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  const chosen: Candidate[] = [];
  for (const c of ranked) {
    let free = true;
    for (let i = c.first; i <= c.last && free; i++) free = taken[i] === 0;
    if (!free) continue;
    taken.fill(1, c.first, c.last + 1);
    chosen.push(c);
  }
  return chosen.sort((a, b) => a.first - b.first);
}
