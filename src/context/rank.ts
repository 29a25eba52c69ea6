// One documented total order per plane, so the same candidates always rank the same way:
//   0. items holding more of the question's identifiers (codes, keys, versions) verbatim first;
//   1. score, highest first: Σ over the sources that found the item of weight / (60 + rank), rank
//      from 1 within the source (query hits by words, neighbours by meaning, recent items, the
//      subject's neighbourhood, linked memories); weight 1, except a word hit in hybrid recall,
//      which counts by the share of the question's content words it holds, nothing below half (docs/recall.md);
//   2. the plane's tiebreak: memories by kind (decision, lesson, preference, fact, signal,
//      observation); chunks by document title then position; entities nearest the subject first;
//   3. recency: created_at, newest first;
//   4. id, in code-unit order.
// Then duplicates are dropped: an item whose normalized text (NFC, whitespace collapsed, trimmed,
// lowercased) repeats one ranked before it, planes taken in the order memory, document, entity.
import { KIND_ORDER, normalizeContent } from '../briefing/select.js';
import { RRF_K } from '../search/fusion.js';
import type { Plane } from '../slices/definition.js';
import type { Candidate } from './candidates.js';

export interface Ranked extends Candidate {
  score: number;
  /** rank within its plane, from 1 */
  rank: number;
  duplicateOf: string | null;
}

const code = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const kindRank = (kind: string | null): number => {
  const i = KIND_ORDER.indexOf((kind ?? '') as (typeof KIND_ORDER)[number]);
  return i < 0 ? KIND_ORDER.length : i;
};

/** Unparseable times sort as oldest. */
function timeOf(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

export function scoreOf(c: Candidate): number {
  return Math.round(c.sources.reduce((s, x) => s + (x.weight ?? 1) / (RRF_K + x.rank), 0) * 1e6) / 1e6;
}

function planeTiebreak(a: Candidate, b: Candidate): number {
  if (a.plane === 'memory') return kindRank(a.kind) - kindRank(b.kind);
  if (a.plane === 'document')
    return (
      code(a.name.replace(/ #\d+$/, ''), b.name.replace(/ #\d+$/, '')) || (a.chunk_index ?? 0) - (b.chunk_index ?? 0)
    );
  return (a.hops ?? 3) - (b.hops ?? 3);
}

export function compareCandidates(a: Candidate & { score: number }, b: Candidate & { score: number }): number {
  if (a.exact.length !== b.exact.length) return b.exact.length - a.exact.length;
  if (a.score !== b.score) return b.score - a.score;
  const tie = planeTiebreak(a, b);
  if (tie !== 0) return tie;
  const ta = timeOf(a.created_at);
  const tb = timeOf(b.created_at);
  if (ta !== tb) return tb > ta ? 1 : -1;
  return code(a.id, b.id);
}

/** The key two items are duplicates by. */
export function dedupeKey(c: Candidate): string {
  return normalizeContent(c.plane === 'entity' ? `${c.name} ${c.label} ${c.text}` : c.text);
}

/** Ranks every plane and marks duplicates (keeping the first by plane order, then rank). */
export function rankCandidates(planes: readonly Plane[], candidates: Map<Plane, Candidate[]>): Map<Plane, Ranked[]> {
  const seen = new Map<string, string>();
  const out = new Map<Plane, Ranked[]>();
  for (const plane of planes) {
    const scored = (candidates.get(plane) ?? []).map((c) => ({ ...c, score: scoreOf(c) }));
    scored.sort(compareCandidates);
    out.set(
      plane,
      scored.map((c, i) => {
        const key = dedupeKey(c);
        const first = seen.get(key);
        if (first === undefined) seen.set(key, c.id);
        return { ...c, rank: i + 1, duplicateOf: first ?? null };
      }),
    );
  }
  return out;
}
