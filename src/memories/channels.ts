// The channels of memory recall beyond words and meaning (docs/recall.md): each ranks candidates by what the graph
// knows of them, and is fused with the others by reciprocal rank fusion (src/search/hybrid.ts). Pure: the same
// candidates give the same rankings.
//   context  a memory's vector made from its episode predecessor's text and its own (the statement ranks them);
//   episode  episodes ranked by their whole text (words) and by their best memory's similarity, each memory of the
//            best episodes ranked by its episode's rank, then by its own evidence;
//   hops     the people and things the question names, walked to the memories that mention them (weighted by
//            role: who said it or whom it is about first; then by rarity), and from the best hits' rare terms;
//   time     memories observed when the question's time expression says (the statement ranks them).
import type { RankedHit } from '../search/hybrid.js';
import { RRF_K } from '../search/fusion.js';
import type { Span } from '../search/timeWindows.js';

/** The channels of recall, each on by default in hybrid mode (a request may name fewer). */
export const RECALL_CHANNELS = ['words', 'meaning', 'context', 'episode', 'hops', 'time'] as const;
export type RecallChannel = (typeof RECALL_CHANNELS)[number];

/** What the channels read of a candidate beside its text (cypher/memories/candidate_links.cypher). */
export interface CandidateLinks {
  episode_id: string | null;
  observed_ms: number | null;
  /** [term key, role of the mention, memories mentioning the term] */
  terms: [string, string, number][];
}

/** A memory candidate as the channels see it: its hit, what it links to, and how it was found. */
export interface ChannelCandidate<T> {
  hit: RankedHit<T>;
  links: CandidateLinks | null;
  /** Its score from words, meaning and context alone (RRF), the order within a channel's ties. */
  prior: number;
  /** Its best similarity to the question (own or context vector), -2 without one. */
  best: number;
}

/** How many of the best episodes lend their rank to their memories. */
export const EPISODES_RANKED = 10;

/**
 * The episode channel: episodes ranked by fusing their words ranking (full-text over the episode's whole text) and
 * the ranking of their best memory's similarity; then every candidate of the first EPISODES_RANKED episodes, by its
 * episode's rank, then its own prior score. A candidate of no ranked episode is not in this channel.
 */
export function episodeRanking<T>(
  candidates: readonly ChannelCandidate<T>[],
  episodeWords: readonly { id: string }[],
  floor: number,
): RankedHit<T>[] {
  const best = new Map<string, number>();
  for (const c of candidates) {
    const e = c.links?.episode_id;
    if (!e || c.best < floor) continue;
    best.set(e, Math.max(best.get(e) ?? -2, c.best));
  }
  const byMeaning = [...best.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
  const score = new Map<string, number>();
  const add = (ids: readonly string[]) =>
    ids.forEach((id, i) => score.set(id, (score.get(id) ?? 0) + 1 / (RRF_K + i + 1)));
  add(episodeWords.map((e) => e.id));
  add(byMeaning);
  const ranked = [...score.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, EPISODES_RANKED)
    .map(([id]) => id);
  const rank = new Map(ranked.map((id, i) => [id, i]));
  return candidates
    .filter((c) => c.links?.episode_id && rank.has(c.links.episode_id))
    .sort(
      (a, b) =>
        rank.get(a.links!.episode_id!)! - rank.get(b.links!.episode_id!)! ||
        b.prior - a.prior ||
        (a.hit.id < b.hit.id ? -1 : 1),
    )
    .map(channelHit);
}

/** A candidate's hit as a channel ranks it: its own weight (1), not the weight another ranking gave it. */
const channelHit = <T>(c: ChannelCandidate<T>): RankedHit<T> => ({
  id: c.hit.id,
  item: c.hit.item,
  text: c.hit.text,
  score: c.hit.score,
});

/**
 * How much a link of each role says that a memory is about a term the question names: who said it, or whom it is
 * about, is the question's own person or thing; an object less; a mere mention little (the words already count it).
 */
const ROLE_WEIGHT: Record<string, number> = {
  speaker: 1,
  subject: 1,
  object: 0.5,
  mention: 0.1,
};

/** A term held by at most this many memories is rare: the hops from the best hits follow it. */
export const RARE_TERM = 5;

/** How many of the best candidates (by prior score) lend their rare terms to the hops. */
const FEEDBACK_HITS = 5;

/**
 * The hops: candidates linked to a term the question names, weighted by the link's role and the term's rarity (1 /
 * log2(2 + memories mentioning it)), plus a smaller share for each rare term (RARE_TERM) they share with the best
 * FEEDBACK_HITS candidates (a second hop: question → best hits → what else names their rare things). Ordered by
 * that weight, then prior score; a candidate the walk does not reach is not in this channel.
 */
export function hopRanking<T>(
  candidates: readonly ChannelCandidate<T>[],
  questionTerms: ReadonlySet<string>,
  feedback: number,
): RankedHit<T>[] {
  const rarity = (degree: number) => 1 / Math.log2(2 + degree);
  const seeds = new Map<string, number>();
  if (feedback > 0) {
    const best = [...candidates].sort((a, b) => b.prior - a.prior).slice(0, FEEDBACK_HITS);
    for (const c of best)
      // Who said a best hit is not what it is about: a speaker lends no walk (in a small project each one is rare).
      for (const [key, role, degree] of c.links?.terms ?? [])
        if (role !== 'speaker' && degree > 1 && degree <= RARE_TERM && !questionTerms.has(key))
          seeds.set(key, (seeds.get(key) ?? 0) + (feedback * rarity(degree)) / FEEDBACK_HITS);
  }
  const weight = new Map<string, number>();
  for (const c of candidates) {
    let w = 0;
    for (const [key, role, degree] of c.links?.terms ?? []) {
      // The question's own person said it, or it is about them: however many memories that is, each is theirs.
      if (questionTerms.has(key)) w += (ROLE_WEIGHT[role] ?? 0.1) * (role === 'mention' ? rarity(degree) : 1);
      else w += seeds.get(key) ?? 0;
    }
    if (w > 0) weight.set(c.hit.id, w);
  }
  return candidates
    .filter((c) => weight.has(c.hit.id))
    .sort(
      (a, b) => weight.get(b.hit.id)! - weight.get(a.hit.id)! || b.prior - a.prior || (a.hit.id < b.hit.id ? -1 : 1),
    )
    .map(channelHit);
}

/**
 * The time channel: every candidate observed within a window ([from, to) in epoch ms), nearest the question first,
 * then the latest observed. The statement reads a window through the observed_at index, at most a scan's worth of
 * it; a window holding more (a year of a large project) is completed by what meaning, context and words found in it,
 * so its nearest memories rank here whichever part of it the scan read.
 */
export function timeRanking<T>(candidates: readonly ChannelCandidate<T>[], windows: readonly Span[]): RankedHit<T>[] {
  const within = (ms: number | null | undefined): ms is number =>
    typeof ms === 'number' && windows.some((w) => ms >= w.from && ms < w.to);
  return candidates
    .filter((c) => within(c.links?.observed_ms))
    .sort((a, b) => b.best - a.best || b.links!.observed_ms! - a.links!.observed_ms! || (a.hit.id < b.hit.id ? -1 : 1))
    .map((c) => ({ ...channelHit(c), score: c.best }));
}
