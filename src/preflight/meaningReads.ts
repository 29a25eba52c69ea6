// The statements of the duplicates check by meaning (src/preflight/meaning.ts): the nodes a delta creates, and the
// committed memories and entities near their vectors; and their planning before the first audit needs them.
import type { Graph, TxMeta } from '../db/graph.js';
import { NO_MATCH_ID } from '../db/warming.js';
import type { EmbeddingModel } from '../embeddings/model.js';
import { EXACT_UP_TO } from '../search/meaning.js';

/** Neighbours asked of the vector index per new memory (it spans every project; we filter to one). */
const NEIGHBOURS = 200;

/** A row of preflight/meaning/delta_nodes: a node the delta creates (declared, not checked). */
export interface DeltaNodeRow {
  kind: 'memory' | 'entity';
  id: string;
  labels: string[] | null;
  props: Record<string, unknown> | null;
}

/** A row of preflight/meaning/near_duplicates or near_entities: a pending node and a committed one near it. */
export interface NearRow {
  pending_id: string;
  committed_id: string;
  committed_name: string | null;
  similarity: number;
}

/** The memories and entities the delta creates, with their labels and properties. */
export function readDeltaNodes(
  graph: Graph,
  deltaId: string,
  projectId: string,
  meta: TxMeta,
): Promise<DeltaNodeRow[]> {
  return graph.read(
    (tx) => tx.run<DeltaNodeRow>('preflight/meaning/delta_nodes', { delta_id: deltaId, project_id: projectId }),
    meta,
  );
}

export interface NearQuestion {
  deltaId: string;
  projectId: string;
  /** The model whose vectors are compared (a committed node's vector of another model does not count). */
  model: string;
  memories: { id: string; vector: number[] }[];
  entities: { id: string; type: string | null; vector: number[] }[];
  thresholds: { memory: number; entity: number };
  meta: TxMeta;
}

/** The committed memories near each new memory, and the committed entities near each new entity, in one read. */
export function readNear(
  graph: Graph,
  q: NearQuestion,
): Promise<readonly [(NearRow & { committed_content: string | null })[], (NearRow & { type: string | null })[]]> {
  return graph.read(async (tx) => {
    const params = {
      k: NEIGHBOURS,
      exact_up_to: EXACT_UP_TO,
      model: q.model,
      delta_id: q.deltaId,
      project_id: q.projectId,
    };
    const memoriesNear =
      q.memories.length === 0
        ? []
        : await tx.run<NearRow & { committed_content: string | null }>('preflight/meaning/near_duplicates', {
            ...params,
            pending: q.memories,
            threshold: q.thresholds.memory,
          });
    const entitiesNear =
      q.entities.length === 0
        ? []
        : await tx.run<NearRow & { type: string | null }>('preflight/meaning/near_entities', {
            ...params,
            pending: q.entities,
            threshold: q.thresholds.entity,
          });
    return [memoriesNear, entitiesNear] as const;
  }, q.meta);
}

/**
 * Plans the check's statements as a small delta's audit runs them (one new memory, one new entity: Neo4j plans a
 * list of one apart from a longer one), with ids that match nothing. The first audit after start planned them
 * itself: 0.6 s of its 1.6-2.2 s on the busy 2-core machine (bench/review.ts, .cache/probe/auditPhases.ts).
 */
export async function planMeaning(graph: Graph, model: EmbeddingModel): Promise<void> {
  const meta = { purpose: 'preflight:plan' };
  const vector = Array.from({ length: model.dimensions }, (_, i) => (i === 0 ? 1 : 0));
  await readDeltaNodes(graph, NO_MATCH_ID, NO_MATCH_ID, meta);
  await readNear(graph, {
    deltaId: NO_MATCH_ID,
    projectId: NO_MATCH_ID,
    model: model.id,
    memories: [{ id: NO_MATCH_ID, vector }],
    entities: [{ id: NO_MATCH_ID, type: 'Person', vector }],
    thresholds: { memory: 0.96, entity: 0.97 },
    meta,
  });
}
