// Links the memories of one write to their episodes (docs/episodes.md): each memory with an `episode` key gets
// (:Memory)-[:IN_EPISODE]->(:Episode), the committed episode of that key or one created in the same delta, and the
// write's own memories of one episode are chained by NEXT in observed order. The chain with the memories already
// committed, and the episode's counts, follow when the delta is applied (episodes/relink).
import crypto from 'node:crypto';
import type { Reader } from '../db/graph.js';
import type { DeltaDraft } from '../deltas/draft.js';
import { tenantToken } from '../db/tenant.js';
import { committedEpisodes } from './store.js';

interface Member {
  memoryId: string;
  observedAt: Date;
  content: string;
  /** the memory's place in the write (ties of observed_at keep it) */
  order: number;
}

/** A committed episode's identity: unique per project and key (schema: episode_identity). */
export function episodeIdentity(projectId: string, key: string): string {
  return `${projectId}|episode|${key}`;
}

export class EpisodeLinker {
  private committed = new Map<string, string>();
  /** key -> id of an episode this delta creates */
  private readonly created = new Map<string, string>();
  /** episode id -> this write's memories in it */
  private readonly members = new Map<string, Member[]>();

  constructor(
    private readonly draft: DeltaDraft,
    private readonly projectId: string,
  ) {}

  /** Reads the committed episodes of the keys this write names (one statement). */
  async prepare(tx: Reader, keys: string[]): Promise<void> {
    this.committed = await committedEpisodes(tx, this.projectId, [...new Set(keys)]);
  }

  /** The episode (committed, or created in this delta) the memory joins, linked; returns its id. */
  link(memoryId: string, key: string, observedAt: Date, content: string): string {
    let id = this.committed.get(key) ?? this.created.get(key);
    if (id === undefined) {
      id = crypto.randomUUID();
      this.created.set(key, id);
    }
    this.draft.createRelationship(memoryId, 'IN_EPISODE', id);
    this.draft.touchEpisode(id);
    const list = this.members.get(id) ?? [];
    list.push({ memoryId, observedAt, content, order: list.length });
    this.members.set(id, list);
    return id;
  }

  /** Stages the new episodes and the NEXT links among this write's memories of each episode. */
  finish(): void {
    for (const list of this.members.values()) {
      list.sort((a, b) => a.observedAt.getTime() - b.observedAt.getTime() || a.order - b.order);
      for (let i = 0; i + 1 < list.length; i += 1)
        this.draft.createRelationship(list[i]!.memoryId, 'NEXT', list[i + 1]!.memoryId);
    }
    for (const [key, id] of this.created) {
      const list = this.members.get(id) ?? [];
      // What the staged episode shows a reviewer; apply derives these again from the committed memories.
      this.draft.createNode(
        ['Episode'],
        {
          key,
          name: key,
          tenant: tenantToken(this.projectId),
          memory_count: list.length,
          first_observed_at: list[0]?.observedAt ?? null,
          last_observed_at: list.at(-1)?.observedAt ?? null,
          text: list
            .slice(-200)
            .map((m) => `${m.content}\n`)
            .join('')
            .slice(0, 20_000),
        },
        { id, identityKey: episodeIdentity(this.projectId, key) },
      );
    }
  }
}
