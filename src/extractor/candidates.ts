// Typed token spans from the shape's own evidence (names it lists, cue words of its types) and
// from the typed names of typing.ts ('ner'), and the choice of non-overlapping ones, strongest
// evidence first, so one stretch of text is never two entities.
import type { Token } from './tokenize.js';
import type { Vocabulary } from './vocabulary.js';

export type CandidateSource = 'gazetteer' | 'cue' | 'ner';

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

const PRIORITY: Record<CandidateSource, number> = { gazetteer: 4, cue: 3, ner: 2 };
const NAMING_VERBS = new Set(['called', 'named']);

/** Token i and token i + 1 can belong to one name: no punctuation or sentence end between them. */
const joins = (tokens: Token[], i: number): boolean => {
  const token = tokens[i];
  return token !== undefined && i + 1 < tokens.length && !token.breakAfter;
};

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
      const same = entry.keys.every(
        (key, k) => tokens[i + k]?.key === key && tokens[i + k]?.sentence === token.sentence,
      );
      if (same)
        out.push({
          first: i,
          last: i + entry.keys.length - 1,
          type: entry.type,
          source: 'gazetteer',
          confidence: 0.95,
        });
    }
  });
  return out;
}

/** Keeps the strongest candidates that do not overlap each other or anything already taken. */
export function selectCandidates(candidates: Candidate[], taken: Uint8Array): Candidate[] {
  const ranked = [...candidates].sort(
    (a, b) =>
      PRIORITY[b.source] - PRIORITY[a.source] ||
      b.last - b.first - (a.last - a.first) ||
      a.first - b.first ||
      (a.type < b.type ? -1 : a.type > b.type ? 1 : 0),
  );
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
