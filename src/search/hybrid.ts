// Hybrid ranking (docs/recall.md): words (Neo4j full-text), meaning (vector index) and, where a
// subject is given, the graph each rank their own hits; the rankings are fused by reciprocal rank
// fusion, and an exact identifier of the question found in an item's text is never buried.
//
// The total order, the same for every recall path:
//   1. items whose text holds more of the question's identifiers (ticket keys, error codes, part
//      numbers, versions: tokens with a digit, an underscore or an inner capital) first;
//   2. items holding more of the question's rare words (words few items of the project hold: `rare`) first;
//   3. the fused score, highest first: Σ over the rankings that found the item of weight / (60 + rank)
//      (a word hit's weight: wordWeight below; every other hit weighs 1 unless its ranking says otherwise);
//   4. the best cosine similarity (its own vector's, or its context's), highest first (items without one last);
//   5. the lexical rank, lowest first (items without one last);
//   6. the ranking that found it first, in the order the rankings are given (planes as asked);
//   7. the id, in code-unit order.
// Pure: no I/O, so the same rankings always give byte-identical orders.
import { stemmer } from 'stemmer';
import { RRF_K } from './fusion.js';

export const SEARCH_MODES = ['hybrid', 'lexical', 'semantic'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/**
 * Where a ranking comes from: words (full-text), meaning (an item's own vector), its context (a memory's vector of
 * its episode predecessor's text and its own), its episode (the whole episode ranked by words and meaning), time
 * (observed when the question says), and the graph (a subject's neighbourhood, or the hops of memory recall).
 */
export type RankingSource = 'lexical' | 'semantic' | 'context' | 'episode' | 'time' | 'graph';

export interface RankedHit<T> {
  id: string;
  item: T;
  /** The text an exact identifier is looked for in (content and name, chunk text, entity name). */
  text: string;
  /** Cosine similarity for semantic and context hits, the engine's score for lexical ones. */
  score: number;
  /** How much this hit's rank counts (0..1, default 1): a word match's share of the question. */
  weight?: number;
}

export interface Ranking<T> {
  source: RankingSource;
  /** Planes keep their own rankings; one item belongs to one plane. */
  plane: string;
  hits: RankedHit<T>[];
}

/** Why a result is there: published as `match` on every search result. */
export interface Match {
  /** Rank (from 1) in the full-text ranking of its plane, or null when words did not find it. */
  lexical_rank: number | null;
  /** Rank (from 1) in the vector ranking of its plane, or null when meaning did not find it. */
  semantic_rank: number | null;
  /** Cosine similarity of the question and the item (−1..1, rounded to 4 places), or null. */
  similarity: number | null;
  /**
   * Rank (from 1) among the subject's neighbourhood, where a subject was given, or among the memories recall's hops
   * reach (the people and things the question names); else null.
   */
  graph_rank: number | null;
  /** Memory recall: rank (from 1) by its context vector (its episode predecessor's text and its own); else null. */
  context_rank?: number | null;
  /** Cosine similarity of the question and its context vector (4 places), or null. */
  context_similarity?: number | null;
  /** Memory recall: rank (from 1) of the item in the episode channel (its episode's rank, then its own); else null. */
  episode_rank?: number | null;
  /** Memory recall: rank (from 1) among the memories observed when the question's time expression says; else null. */
  time_rank?: number | null;
  /** The question's identifiers found verbatim in the item's text. */
  exact: string[];
  /** Memory recall: the question's rare words (held by few memories of the project) the item holds. */
  rare?: string[];
  /** The fused score (rounded to 6 places). */
  score: number;
}

export interface HybridResult<T> {
  id: string;
  plane: string;
  item: T;
  match: Match;
}

// A token: letters, digits and the joiners identifiers use inside them (ERR-4012, v2.3.1, PO#881).
const TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{N}_./:#-]*[\p{L}\p{N}])?/gu;

/** The question's tokens that look like identifiers rather than words, lower-cased, in order. */
export function identifierTokens(query: string): string[] {
  const out: string[] = [];
  for (const token of query.match(TOKEN) ?? []) {
    const isIdentifier = /\p{N}/u.test(token) || token.includes('_') || /\p{Ll}\p{Lu}/u.test(token);
    const key = token.toLowerCase();
    if (isIdentifier && token.length >= 2 && !out.includes(key)) out.push(key);
  }
  return out;
}

/** The identifiers that stand in the text as whole tokens (case-insensitive). */
export function exactIdentifiers(identifiers: readonly string[], text: string): string[] {
  if (identifiers.length === 0) return [];
  const tokens = new Set<string>();
  for (const token of text.match(TOKEN) ?? []) {
    const lower = token.toLowerCase();
    tokens.add(lower);
    // "ERR-4012." or "(v2.3.1)" as well as a key inside a path or a sentence's last word.
    for (const part of lower.split(/[/:#]/)) if (part) tokens.add(part);
  }
  return identifiers.filter((id) => tokens.has(id));
}

const round = (n: number, places: number): number => Math.round(n * 10 ** places) / 10 ** places;

interface Acc<T> {
  id: string;
  plane: string;
  item: T;
  text: string;
  rrf: number;
  /** index of the first ranking that found it */
  order: number;
  /** the best cosine of the question and the item (its own vector's or its context's), -2 without one */
  best: number;
  match: Omit<Match, 'exact' | 'score'>;
}

/** Why an item must come first whatever its score: the question's rare words it holds (memory recall). */
export type RareOf = (id: string) => string[];

/** Fuses the rankings into one list of at most `limit` results in the documented total order. */
export function fuseRankings<T>(
  rankings: readonly Ranking<T>[],
  query: string,
  limit: number,
  k = RRF_K,
  rareOf?: RareOf,
): HybridResult<T>[] {
  const identifiers = identifierTokens(query);
  const channels = new Set(rankings.map((r) => r.source));
  const byId = new Map<string, Acc<T>>();
  rankings.forEach((ranking, order) => {
    ranking.hits.forEach((hit, i) => {
      const rank = i + 1;
      let acc = byId.get(hit.id);
      if (!acc) {
        acc = {
          id: hit.id,
          plane: ranking.plane,
          item: hit.item,
          text: hit.text,
          rrf: 0,
          order,
          best: -2,
          match: {
            lexical_rank: null,
            semantic_rank: null,
            similarity: null,
            graph_rank: null,
            // Memory recall's channels: present in its match only when it ranks by them.
            ...(channels.has('context') ? { context_rank: null, context_similarity: null } : {}),
            ...(channels.has('episode') ? { episode_rank: null } : {}),
            ...(channels.has('time') ? { time_rank: null } : {}),
          },
        };
        byId.set(hit.id, acc);
      }
      acc.rrf += (hit.weight ?? 1) / (k + rank);
      const m = acc.match;
      if (ranking.source === 'lexical' && m.lexical_rank === null) m.lexical_rank = rank;
      if (ranking.source === 'graph' && m.graph_rank === null) m.graph_rank = rank;
      if (ranking.source === 'episode' && m.episode_rank === null) m.episode_rank = rank;
      if (ranking.source === 'time' && m.time_rank === null) m.time_rank = rank;
      if (ranking.source === 'semantic' && m.semantic_rank === null) {
        m.semantic_rank = rank;
        m.similarity = round(hit.score, 4);
        acc.best = Math.max(acc.best, hit.score);
      }
      if (ranking.source === 'context' && m.context_rank === null) {
        m.context_rank = rank;
        m.context_similarity = round(hit.score, 4);
        acc.best = Math.max(acc.best, hit.score);
      }
    });
  });
  const scored = [...byId.values()].map((a) => ({
    ...a,
    exact: exactIdentifiers(identifiers, a.text),
    rare: rareOf?.(a.id) ?? [],
    score: round(a.rrf, 6),
  }));
  scored.sort(
    (a, b) =>
      b.exact.length - a.exact.length ||
      b.rare.length - a.rare.length ||
      b.score - a.score ||
      b.best - a.best ||
      (a.match.lexical_rank ?? Infinity) - (b.match.lexical_rank ?? Infinity) ||
      a.order - b.order ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return scored.slice(0, limit).map((s) => ({
    id: s.id,
    plane: s.plane,
    item: s.item,
    match: { ...s.match, exact: s.exact, ...(rareOf ? { rare: s.rare } : {}), score: s.score },
  }));
}

// Words that carry no meaning of their own in a question (English); every other word counts.
const FUNCTION_WORDS = new Set(
  (
    'a an and are as at be by can could did do does for from had has have how i if in is it its me my of ' +
    'on or our so than that the their them there these they this to us was we were what when where which ' +
    'who whom whose why will with would you your'
  ).split(' '),
);

// A word as the full-text indexes' English analyzer sees it: a run of letters and digits ("fish-farm" is
// two words, "company's" is "company" and "s"), lower-cased and reduced to its Porter stem, the stemmer
// that analyzer runs ("farming" and "farm", "salaries" and "salary" share a stem; "paid" and "pays" do not).
const WORD = /[\p{L}\p{N}]+/gu;
const words = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

// Stems are memoised: every search stems the words of up to a few hundred candidates, and the same
// words recur from one search to the next (a lookup instead of the stemmer's suffix rules). Bounded:
// emptied when full, so a stream of new words cannot grow it without end.
const STEMS_KEPT = 50_000;
const stemCache = new Map<string, string>();
function stemOf(word: string): string {
  let stem = stemCache.get(word);
  if (stem === undefined) {
    if (stemCache.size >= STEMS_KEPT) stemCache.clear();
    stem = stemmer(word);
    stemCache.set(word, stem);
  }
  return stem;
}

/** The question's content words as stems (function words and one-letter words left out), each once. */
export function contentWords(query: string): string[] {
  return [
    ...new Set(
      words(query)
        .filter((w) => w.length > 1 && !FUNCTION_WORDS.has(w))
        .map(stemOf),
    ),
  ];
}

/**
 * The share of the question's content words (stems, from contentWords) found in the text, analysed as
 * the full-text index analyses it, so a hit is credited with the words that made the index find it.
 * Questions without content words count every hit fully.
 */
export function wordCoverage(stems: readonly string[], text: string): number {
  if (stems.length === 0) return 1;
  const found = new Set(words(text).map(stemOf));
  return stems.filter((w) => found.has(w)).length / stems.length;
}

/**
 * A word hit holding less than this share of the question's content words is incidental: it weighs
 * nothing in hybrid recall (it stays a candidate, found by words, ranked after what has weight).
 */
export const MIN_WORD_SHARE = 0.5;

/**
 * How much a word hit counts in hybrid recall: the share of the question's content words it holds, or
 * nothing below half of them. A full-text hit on one incidental word of a question ("Which new starters
 * receive a **laptop** today?" finding "…the **laptop** trial…", a fifth of its words) is no evidence, and
 * with fusion's constant of 60 even a weak hit deep in the words' ranking outweighs the gap between
 * meaning's first and tenth neighbour.
 */
export function wordWeight(stems: readonly string[], text: string): number {
  const share = wordCoverage(stems, text);
  return share >= MIN_WORD_SHARE ? share : 0;
}

/**
 * The rankings one plane contributes for the mode served: lexical → the words' ranking; semantic →
 * the vector index's; hybrid → both, each word hit weighted by wordWeight (the share of the question it holds).
 */
export function hybridRankings<T>(
  plane: string,
  served: SearchMode,
  query: string,
  lexical: readonly RankedHit<T>[],
  semantic: readonly RankedHit<T>[],
): Ranking<T>[] {
  if (served === 'lexical') return [{ source: 'lexical', plane, hits: [...lexical] }];
  if (served === 'semantic') return [{ source: 'semantic', plane, hits: [...semantic] }];
  const stems = contentWords(query);
  return [
    { source: 'lexical', plane, hits: lexical.map((hit) => ({ ...hit, weight: wordWeight(stems, hit.text) })) },
    { source: 'semantic', plane, hits: [...semantic] },
  ];
}
