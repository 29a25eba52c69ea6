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
import { edgesThen, meaningThen, nearThen, putBack, readThen, wordsThen, type Then } from './known.js';
import type { KnownNode } from '../deltas/known.js';

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
  /** Valid time (docs/facts.md); absent, now (at knownAt when that is given). */
  asOf?: string;
  /** Transaction time (docs/facts.md): only what the graph knew then; absent, now. */
  knownAt?: string;
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
  const { filters, limit } = request;
  const now = new Date().toISOString();
  const validAtTime = request.asOf ?? request.knownAt ?? now;
  const then = request.knownAt ? await readThen(deps.graph, projectId, request.knownAt) : null;
  const left = (rows: Row[], key: string): Row[] =>
    then ? rows.filter((r) => !then.left.has(String((r[key] as Row).id))) : rows;
  const extra = then?.left.size ?? 0;
  const base = { project_id: projectId, lucene, limit, valid_at: validAtTime };
  /** Per plane: its word statement and vector statement with their filters, and how a row is shown. */
  const spec = (plane: Plane) => {
    if (plane === 'memory') {
      const kinds = filters.memory?.kinds ?? null;
      return {
        n: candidates(limit, kinds !== null),
        words: ['memories/search', { ...base, now, kinds }] as const,
        near: ['memories/vector', { project_id: projectId, now, kinds, valid_at: validAtTime }] as const,
        key: 'memory' as const,
        putBackOf: (t: Then) =>
          putBack(t, 'Memory', validAtTime, now).filter((m) => kinds === null || kinds.includes(String(m.props.kind))),
        row: (m: KnownNode): Row => ({ memory: m.props, score: 0 }),
        text: (r: Row) => memoryText(r.memory as Row),
        view:
          (r: Row): ViewOf =>
          (score) =>
            searchMemoryView(r, score),
      };
    }
    if (plane === 'document') {
      const documentIds = filters.document?.document_ids ?? null;
      const tags = filters.document?.tags ? filters.document.tags.map(normalizeName) : null;
      const params = { document_ids: documentIds, tags };
      return {
        n: candidates(limit, documentIds !== null || tags !== null),
        words: ['search/chunks', { ...base, ...params }] as const,
        near: ['search/chunks_vector', { project_id: projectId, ...params }] as const,
        key: 'chunk' as const,
        // Chunks put back carry no title; with a document filter none are put back.
        putBackOf: (t: Then) => (documentIds !== null || tags !== null ? [] : putBack(t, 'Chunk', validAtTime, now)),
        row: (c: KnownNode): Row => ({ chunk: c.props, document_title: null, score: 0 }),
        text: (r: Row) => String((r.chunk as Row).text ?? ''),
        view:
          (r: Row): ViewOf =>
          (score) =>
            chunkView(r, score),
      };
    }
    const types = filters.entity?.types ?? null;
    return {
      n: candidates(limit, types !== null),
      words: ['search/entities', { ...base, types }] as const,
      near: ['search/entities_vector', { project_id: projectId, types }] as const,
      key: 'entity' as const,
      putBackOf: (t: Then) =>
        putBack(t, 'Entity', validAtTime, now).filter((e) => types === null || types.includes(String(e.props.type))),
      row: (e: KnownNode): Row => ({ entity: e.props, labels: e.labels, score: 0 }),
      text: (r: Row) => String((r.entity as Row).name ?? ''),
      view:
        (r: Row): ViewOf =>
        (score) =>
          entityView(r, score),
    };
  };
  const specs = request.planes.map((plane) => ({ plane, ...spec(plane) }));
  const readWords = () =>
    deps.graph.read(async (tx) => {
      const words = new Map<Plane, Row[]>();
      for (const {
        plane,
        words: [statement, params],
        n,
        key,
      } of specs) {
        // With known_at, more rows are read so that those left out do not shorten the ranking.
        const rows = await tx.run(statement, { ...params, candidates: n + extra, limit: limit + extra });
        words.set(plane, then ? left(rows, key).slice(0, limit) : rows);
      }
      return words;
    });
  // The words are read while the question is embedded (the engine call is the longer of the two);
  // a semantic question the engine cannot embed is served lexically, and then reads them after.
  const [question, early] = await Promise.all([
    embedQuestion(deps, request.query, mode),
    mode === 'semantic' ? Promise.resolve(null) : readWords(),
  ]);
  const served = servedMode(mode, question);
  const words = served === 'semantic' ? new Map<Plane, Row[]>() : (early ?? (await readWords()));
  // What known_at puts back is ranked by meaning too, in the index hits' order (docs/facts.md).
  const similar =
    then && served !== 'lexical'
      ? await meaningThen(
          deps.graph,
          deps.embedder,
          projectId,
          request.query,
          question,
          specs.flatMap((sp) => sp.putBackOf(then)),
        )
      : new Map<string, number>();
  return deps.graph.read(async (tx) => {
    const rankings: Ranking<ViewOf>[] = [];
    for (const {
      plane,
      n,
      near: [statement, params],
      key,
      putBackOf,
      row,
      text,
      view,
    } of specs) {
      const near = served === 'lexical' ? [] : left(await nearest(tx, statement, params, question, n), key);
      const hit = (r: Row, score: number) => ({ id: String((r[key] as Row).id), item: view(r), text: text(r), score });
      const read = (words.get(plane) ?? []).map((r) => hit(r, Number(r.score)));
      const back = then ? putBackOf(then) : [];
      const lexical =
        then && served !== 'semantic'
          ? wordsThen(
              request.query,
              read,
              back.map((b) => hit(row(b), 0)),
            )
          : read;
      const nearHits = near.map((r) => hit(r, Number(r.similarity)));
      const semantic = then
        ? nearThen(
            nearHits,
            back.filter((b) => similar.has(b.id)).map((b) => hit(row(b), similar.get(b.id)!)),
            n,
          )
        : nearHits;
      rankings.push(...hybridRankings(plane, served, request.query, lexical, semantic));
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
    const shown = then ? edgesThen(then, edges, ids, validAtTime, EDGES_PER_NODE) : edges;
    return { nodes, edges: shown.map((e) => edgeView(e, false)), mode: served, degraded: question.degraded };
  });
}
