// Deterministic evidence selection: the same candidates always yield the same evidence in the same
// order, whatever order retrieval returned them in, so briefings and their hashes are reproducible.
import type { BriefingMemory, MemoryKind } from './types.js';

export const DEFAULT_MAX_EVIDENCE = 12;

/** Kinds in the order a reader acts on them; also the order of briefing sections. */
export const KIND_ORDER: readonly MemoryKind[] = ['decision', 'lesson', 'preference', 'fact', 'signal', 'observation'];

const KIND_RANK: Record<MemoryKind, number> = Object.fromEntries(
  KIND_ORDER.map((kind, rank) => [kind, rank]),
) as Record<MemoryKind, number>;

/** Content as compared for duplicates: Unicode NFC, whitespace runs collapsed, trimmed, lowercased. */
export function normalizeContent(content: string): string {
  return content.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Milliseconds since the epoch, or -Infinity for an unparseable date so it sorts as oldest. */
function timeOf(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/** Code-unit order, not locale order, so the result does not depend on the host's locale. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A missing or NaN score ranks below every real score (NaN would make the sort order undefined). */
function rankScore(memory: BriefingMemory): number {
  return memory.score === undefined || Number.isNaN(memory.score) ? Number.NEGATIVE_INFINITY : memory.score;
}

/** Score desc (unscored last), kind priority, created_at desc, then id asc. */
export function compareCandidates(a: BriefingMemory, b: BriefingMemory): number {
  const scoreA = rankScore(a);
  const scoreB = rankScore(b);
  if (scoreA !== scoreB) return scoreB > scoreA ? 1 : -1;
  const kind = KIND_RANK[a.kind] - KIND_RANK[b.kind];
  if (kind !== 0) return kind;
  const timeA = timeOf(a.created_at);
  const timeB = timeOf(b.created_at);
  if (timeA !== timeB) return timeB > timeA ? 1 : -1;
  return compareCodeUnits(a.id, b.id);
}

/**
 * Orders the candidates, drops any whose normalized content repeats a better-ranked one, and keeps
 * at most maxEvidence. maxEvidence must be a whole number of at least 0.
 */
export function selectEvidence(
  candidates: readonly BriefingMemory[],
  maxEvidence: number = DEFAULT_MAX_EVIDENCE,
): BriefingMemory[] {
  if (!Number.isInteger(maxEvidence) || maxEvidence < 0) {
    throw new RangeError(`maxEvidence must be a whole number of at least 0, got ${maxEvidence}`);
  }
  const seen = new Set<string>();
  const selected: BriefingMemory[] = [];
  for (const memory of [...candidates].sort(compareCandidates)) {
    if (selected.length >= maxEvidence) break;
    const key = normalizeContent(memory.content);
    if (seen.has(key)) continue;
    seen.add(key);
    selected.push(memory);
  }
  return selected;
}

/** The day a memory speaks of, YYYY-MM-DD: date_observed when known, else created_at. */
export function memoryDay(memory: BriefingMemory): string {
  const raw = memory.date_observed ?? memory.created_at;
  if (/^\d{4}-\d{2}-\d{2}/.test(raw)) return raw.slice(0, 10);
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? raw : new Date(ms).toISOString().slice(0, 10);
}
