// Reciprocal rank fusion: each plane ranks its own hits (Lucene scores of different indexes are
// not comparable), and a hit's fused score is the sum over the rankings it appears in of
// 1 / (k + rank), rank counted from 1. Ties (the same rank in several planes) go to the hit whose
// raw score is nearer its plane's best, then to the plane asked for first, then to the lower id.

export const RRF_K = 60;

export interface Hit<T> {
  id: string;
  /** The plane's own (Lucene) score. */
  score: number;
  item: T;
}

export interface Fused<T> {
  id: string;
  plane: string;
  score: number;
  item: T;
}

export function reciprocalRankFusion<T>(
  rankings: { plane: string; hits: Hit<T>[] }[],
  limit: number,
  k = RRF_K,
): Fused<T>[] {
  const fused = new Map<string, Fused<T> & { relative: number; order: number }>();
  rankings.forEach(({ plane, hits }, order) => {
    const best = hits.reduce((m, h) => Math.max(m, h.score), 0);
    hits.forEach((hit, i) => {
      const contribution = 1 / (k + i + 1);
      const relative = best > 0 ? hit.score / best : 0;
      const known = fused.get(hit.id);
      if (known) {
        known.score += contribution;
        known.relative = Math.max(known.relative, relative);
      } else {
        fused.set(hit.id, { id: hit.id, plane, score: contribution, item: hit.item, relative, order });
      }
    });
  });
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || b.relative - a.relative || a.order - b.order || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map(({ id, plane, score, item }) => ({ id, plane, score, item }));
}
