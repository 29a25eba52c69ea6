// Search across planes: memories, document chunks and entities, each ranked twice within the
// project: by words (full-text indexes memory_text, chunk_text, entity_text) and by meaning (vector
// indexes memory_embedding, chunk_embedding, entity_embedding), then fused into one ranking
// (src/search/hybrid.ts, docs/recall.md), with the committed edges around.
import type { Row } from '../db/graph.js';
import type { GraphDeps } from '../shared/deps.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import { memoryText } from '../memories/recall.js';
import { fuseRankings, hybridRankings, type Ranking, type SearchMode } from './hybrid.js';
import { embedQuestion, nearest, servedMode, type Degraded } from './meaning.js';
import type { Plain } from '../db/values.js';
import { luceneQuery } from '../db/tenant.js';
import { normalizeName } from '../entities/identity.js';
import { memoryView } from '../memories/views.js';
import { edgeView, visibleLabels, visibleProps } from '../graph/views.js';

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
  mode?: SearchMode;
  /** Valid time (docs/facts.md); absent, now. */
  asOf?: string;
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

export interface SearchAnswer {
  nodes: View[];
  edges: View[];
  mode: SearchMode;
  degraded: Degraded[];
}

export async function searchPlanes(
  deps: GraphDeps & EmbedderDeps,
  projectId: string,
  request: SearchRequest,
): Promise<SearchAnswer> {
  const mode = request.mode ?? 'hybrid';
  const lucene = luceneQuery(request.query, projectId);
  if (!lucene) return { nodes: [], edges: [], mode, degraded: [] };
  const question = await embedQuestion(deps, request.query, mode);
  const served = servedMode(mode, question);
  const { filters, limit } = request;
  const now = new Date().toISOString();
  const validAtTime = request.asOf ?? now;
  const base = { project_id: projectId, lucene, limit, valid_at: validAtTime };
  return deps.graph.read(async (tx) => {
    const rankings: Ranking<ViewOf>[] = [];
    const lexical = served !== 'semantic';
    const semantic = served !== 'lexical';
    /** A plane's rankings for the mode served, from its word rows and its vector rows. */
    const planeRankings = (
      plane: Plane,
      words: Row[],
      near: Row[],
      key: 'memory' | 'chunk' | 'entity',
      text: (r: Row) => string,
      view: (r: Row) => ViewOf,
    ): Ranking<ViewOf>[] => {
      const hit = (r: Row, score: number) => ({ id: String((r[key] as Row).id), item: view(r), text: text(r), score });
      return hybridRankings(
        plane,
        served,
        request.query,
        words.map((r) => hit(r, Number(r.score))),
        near.map((r) => hit(r, Number(r.similarity))),
      );
    };
    for (const plane of request.planes) {
      if (plane === 'memory') {
        const kinds = filters.memory?.kinds ?? null;
        const n = candidates(limit, kinds !== null);
        const view =
          (r: Row): ViewOf =>
          (s) =>
            searchMemoryView(r, s);
        const text = (r: Row) => memoryText(r.memory as Row);
        const words = lexical ? await tx.run('memories/search', { ...base, now, kinds, candidates: n }) : [];
        const near = semantic
          ? await nearest(
              tx,
              'memories/vector',
              { project_id: projectId, now, kinds, valid_at: validAtTime },
              question,
              n,
            )
          : [];
        rankings.push(...planeRankings(plane, words, near, 'memory', text, view));
      } else if (plane === 'document') {
        const documentIds = filters.document?.document_ids ?? null;
        const tags = filters.document?.tags ? filters.document.tags.map(normalizeName) : null;
        const n = candidates(limit, documentIds !== null || tags !== null);
        const view =
          (r: Row): ViewOf =>
          (s) =>
            chunkView(r, s);
        const text = (r: Row) => String((r.chunk as Row).text ?? '');
        const params = { document_ids: documentIds, tags };
        const words = lexical ? await tx.run('search/chunks', { ...base, ...params, candidates: n }) : [];
        const near = semantic
          ? await nearest(tx, 'search/chunks_vector', { project_id: projectId, ...params }, question, n)
          : [];
        rankings.push(...planeRankings(plane, words, near, 'chunk', text, view));
      } else {
        const types = filters.entity?.types ?? null;
        const n = candidates(limit, types !== null);
        const view =
          (r: Row): ViewOf =>
          (s) =>
            entityView(r, s);
        const text = (r: Row) => String((r.entity as Row).name ?? '');
        const words = lexical ? await tx.run('search/entities', { ...base, types, candidates: n }) : [];
        const near = semantic
          ? await nearest(tx, 'search/entities_vector', { project_id: projectId, types }, question, n)
          : [];
        rankings.push(...planeRankings(plane, words, near, 'entity', text, view));
      }
    }
    const fused = fuseRankings(rankings, request.query, limit);
    const nodes = fused.map((f) => ({ ...f.item(f.match.score), match: f.match as unknown as Plain }));
    const ids = fused.map((f) => f.id);
    const edges =
      ids.length > 0
        ? await tx.run('search/edges', {
            ids,
            project_id: projectId,
            per_node: EDGES_PER_NODE,
            valid_at: validAtTime,
          })
        : [];
    return { nodes, edges: edges.map((e) => edgeView(e, false)), mode: served, degraded: question.degraded };
  });
}
