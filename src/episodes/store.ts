// Episodes in the graph (docs/episodes.md): the conversation, session, thread, meeting, call or ticket memories
// came from. The memories' links (IN_EPISODE) are governed like every write; the NEXT chain and the episode's
// counts and text are derived from its committed memories whenever a delta that touched it is applied or
// reverted (episodes/relink), as an index is kept. Every episodes/ statement runs from this folder.
import type { Reader, Tx } from '../db/graph.js';
import { isPresent } from '../graph/views.js';
import type { MemoryProps } from '../memories/views.js';

/** The statement (and its parameters) that relinks the episodes a delta touched: a step of the write that applies. */
export function relinkStep(deltaId: string, now: string, embed: boolean): readonly [string, Record<string, unknown>] {
  return ['episodes/relink', { delta_id: deltaId, now, embed }];
}

/** Relinks, in the caller's transaction, the episodes a delta touched (after its changes are applied or reverted). */
export async function relinkEpisodes(tx: Tx, deltaId: string, now: string, embed: boolean): Promise<void> {
  const [name, params] = relinkStep(deltaId, now, embed);
  await tx.run(name, params);
}

/** The committed episodes of the project named by keys: key -> id. */
export async function committedEpisodes(tx: Reader, projectId: string, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await tx.run<{ id: string; key: string }>('episodes/by_keys', { project_id: projectId, keys });
  return new Map(rows.map((r) => [r.key, r.id]));
}

/** An episode as the statements read it (declared, not checked). */
export interface EpisodeRow {
  id: string;
  key: string;
  memory_count: number | null;
  first_observed_at: string | null;
  last_observed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A page of the project's committed episodes, the most recently observed first (null: deleted mid-read). */
export async function listEpisodes(
  tx: Reader,
  projectId: string,
  page: { after: { at: string; id: string } | null; limit: number },
): Promise<(EpisodeRow | null)[]> {
  const rows = await tx.run<{ episode: EpisodeRow | null }>('episodes/list', {
    project_id: projectId,
    after_at: page.after?.at ?? null,
    after_id: page.after?.id ?? '',
    limit: page.limit,
  });
  return rows.map((r) => (r.episode?.id ? r.episode : null));
}

/** One committed episode and a page of its memories in observed order; null when it is not committed here. */
export async function readEpisode(
  tx: Reader,
  projectId: string,
  id: string,
  page: { after: { at: string; id: string } | null; limit: number },
): Promise<{ episode: EpisodeRow; memories: MemoryProps[] } | null> {
  const row = await tx.one<{ episode: EpisodeRow | null; memories: (MemoryProps | null)[] }>('episodes/get', {
    id,
    project_id: projectId,
    after_at: page.after?.at ?? null,
    after_id: page.after?.id ?? '',
    limit: page.limit,
  });
  if (!row?.episode?.id) return null;
  return { episode: row.episode, memories: row.memories.filter((m): m is MemoryProps => isPresent(m)) };
}

/** Recall's episode channel by words: the project's committed episodes best matching a full-text query, best first. */
export async function episodesByWords(
  tx: Reader,
  projectId: string,
  lucene: string,
  limit: number,
): Promise<{ id: string; score: number }[]> {
  return tx.run<{ id: string; score: number }>('episodes/search', { project_id: projectId, lucene, limit });
}
