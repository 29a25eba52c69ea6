// An episode as the API shows it (docs/episodes.md).
import type { Answer } from '../http/answer.js';
import type { episodeSchema } from './schemas.js';
import type { EpisodeRow } from './store.js';

export type EpisodeView = Answer<typeof episodeSchema>;

export function episodeView(e: EpisodeRow): EpisodeView {
  return {
    id: e.id,
    key: e.key,
    memory_count: e.memory_count ?? 0,
    // An episode always has a first memory; one whose memories were all deleted keeps its own times.
    first_observed_at: e.first_observed_at ?? e.created_at,
    last_observed_at: e.last_observed_at ?? e.created_at,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}
