// Search across planes: memories (memory_text), document chunks (chunk_text) and entities
// (entity_text), each ranked by Lucene within the project (tenant token in the query), filtered per
// plane, then fused into one ranking by reciprocal rank fusion, with the committed edges around.
import type { Graph, Row } from '../db/graph.js';
import type { Plain } from '../db/values.js';
import { luceneQuery } from '../db/tenant.js';
import { normalizeName } from '../entities/identity.js';
import { memoryView } from '../memories/views.js';
import { edgeView, visibleLabels, visibleProps } from '../graph/views.js';
import { reciprocalRankFusion, type Hit } from './fusion.js';

export const PLANES = ['memory', 'document', 'entity'] as const;
export type Plane = (typeof PLANES)[number];

export interface SearchFilters {
  memory?: { kinds?: string[] };
  document?: { document_ids?: string[]; tags?: string[] };
  entity?: { types?: string[] };
}

export interface SearchRequest {
  query: string;
  planes: Plane[];
  filters: SearchFilters;
  limit: number;
}

type View = Record<string, Plain>;
/** A result's view, made once its fused score is known. */
type ViewOf = (fused: number) => View;

/** Relationships returned per result node at most. */
export const EDGES_PER_NODE = 25;
const TOP_LEVEL = new Set(['id', 'name', 'created_at', 'updated_at']);

/** Lucene candidates fetched per plane before filtering: more when a filter may drop many. */
function candidates(limit: number, filtered: boolean): number {
  return filtered ? Math.min(limit * 20 + 200, 5000) : limit * 4 + 20;
}

function chunkView(row: Row, score: number): View {
  const p = (row.chunk ?? {}) as View;
  const title = typeof row.document_title === 'string' ? row.document_title : null;
  const index = typeof p.index === 'number' ? p.index : null;
  return {
    id: p.id ?? null,
    type: 'chunk',
    label: 'Chunk',
    name: title !== null && index !== null ? `${title} #${index + 1}` : (title ?? String(p.id)),
    properties: { ...visibleProps(p, TOP_LEVEL), document_title: title },
    plane: 'document',
    score,
    created_at: p.created_at ?? null,
    updated_at: p.updated_at ?? null,
  };
}

function entityView(row: Row, score: number): View {
  const p = (row.entity ?? {}) as View;
  const labels = visibleLabels(row.labels).filter((l) => l !== 'Entity');
  return {
    id: p.id ?? null,
    type: 'entity',
    label: typeof p.type === 'string' ? p.type : (labels[0] ?? 'Entity'),
    name: p.name ?? null,
    properties: visibleProps(p, new Set([...TOP_LEVEL, 'normalized_name'])),
    plane: 'entity',
    score,
    created_at: p.created_at ?? null,
    updated_at: p.updated_at ?? null,
  };
}

function searchMemoryView(row: Row, score: number): View {
  const m = memoryView(row.memory as View, 'search');
  return {
    id: m.id ?? null,
    type: 'memory',
    label: 'Memory',
    name: m.name ?? null,
    properties: m.properties ?? {},
    plane: 'memory',
    score,
    created_at: m.created_at ?? null,
    updated_at: m.updated_at ?? null,
  };
}

export async function searchPlanes(
  graph: Graph,
  projectId: string,
  request: SearchRequest,
): Promise<{ nodes: View[]; edges: View[] }> {
  const lucene = luceneQuery(request.query, projectId);
  if (!lucene) return { nodes: [], edges: [] };
  const { filters, limit } = request;
  const now = new Date().toISOString();
  const base = { project_id: projectId, lucene, limit };
  return graph.read(async (tx) => {
    const rankings: { plane: Plane; hits: Hit<ViewOf>[] }[] = [];
    for (const plane of request.planes) {
      if (plane === 'memory') {
        const kinds = filters.memory?.kinds ?? null;
        const rows = await tx.run('memories/search', {
          ...base,
          now,
          kinds,
          candidates: candidates(limit, kinds !== null),
        });
        rankings.push({
          plane,
          hits: rows.map((r) => hit(String((r.memory as View).id), Number(r.score), (s) => searchMemoryView(r, s))),
        });
      } else if (plane === 'document') {
        const documentIds = filters.document?.document_ids ?? null;
        const tags = filters.document?.tags ? filters.document.tags.map(normalizeName) : null;
        const rows = await tx.run('search/chunks', {
          ...base,
          document_ids: documentIds,
          tags,
          candidates: candidates(limit, documentIds !== null || tags !== null),
        });
        rankings.push({
          plane,
          hits: rows.map((r) => hit(String((r.chunk as View).id), Number(r.score), (s) => chunkView(r, s))),
        });
      } else {
        const types = filters.entity?.types ?? null;
        const rows = await tx.run('search/entities', { ...base, types, candidates: candidates(limit, types !== null) });
        rankings.push({
          plane,
          hits: rows.map((r) => hit(String((r.entity as View).id), Number(r.score), (s) => entityView(r, s))),
        });
      }
    }
    const fused = reciprocalRankFusion(rankings, limit);
    const nodes = fused.map((f) => f.item(round(f.score)));
    const ids = fused.map((f) => f.id);
    const edges =
      ids.length > 0 ? await tx.run('search/edges', { ids, project_id: projectId, per_node: EDGES_PER_NODE }) : [];
    return { nodes, edges: edges.map((e) => edgeView(e, false)) };
  });
}

function hit(id: string, score: number, view: ViewOf): Hit<ViewOf> {
  return { id, score, item: view };
}

const round = (score: number): number => Math.round(score * 1e6) / 1e6;
