// Search across planes: memories, document chunks and entities, each ranked twice within the
// project: by words (full-text indexes memory_text, chunk_text, entity_text) and by meaning (vector
// indexes memory_embedding, chunk_embedding, entity_embedding), then fused into one ranking
// (src/search/hybrid.ts, docs/recall.md), with the committed edges around.
import type { Reader } from '../db/graph.js';
import type { Answer } from '../http/answer.js';
import type { GraphDeps } from '../shared/deps.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import { answeredParts, memoryText, NO_LINKS, type AnsweredRow } from '../memories/recall.js';
import { fuseRankings, hybridRankings, type RankedHit, type Ranking, type SearchMode } from './hybrid.js';
import { embedQuestion, nearest, servedMode, type Degraded, type Question } from './meaning.js';
import type { Plain } from '../db/values.js';
import { luceneQuery } from '../db/tenant.js';
import { fullTextRow, type FullTextRow } from '../db/fullText.js';
import { normalizeName } from '../entities/identity.js';
import { memoryView, type MemoryProps } from '../memories/views.js';
import { edgeView, isPresent, visibleLabels, visibleProps, type GraphEdgeView } from '../graph/views.js';
import { edgesThen, meaningThen, nearThen, putBack, readThen, wordsThen, type Then } from './known.js';
import type { KnownNode } from '../deltas/known.js';
import { PLANES, type Plane, type searchNodeSchema } from './schemas.js';
import { Around, type AroundRow, type KeyedEdge } from './around.js';

export { PLANES, type Plane };

export interface SearchFilters {
  memory?: { kinds?: string[]; episode?: string };
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

/** A result as the search answers it, before its match is added. */
type View = Omit<Answer<typeof searchNodeSchema>, 'match'>;
/**
 * A result's view, made once its fused score is known. A memory the meaning side found is ranked on part of it
 * (id, name, content: memories/vector) and read whole (search/answered) only if it is answered: `partial`. The
 * word statement reads its hits whole (memories/search with $around).
 */
interface ViewOf {
  partial: boolean;
  view: (fused: number, whole?: MemoryProps) => View | null;
}

/** Relationships returned per result node at most. */
export const EDGES_PER_NODE = 25;
const TOP_LEVEL = new Set(['id', 'name', 'created_at', 'updated_at']);

/** Lucene candidates fetched per plane before filtering: more when a filter may drop many. */
function candidates(limit: number, filtered: boolean): number {
  return filtered ? Math.min(limit * 20 + 200, 5000) : limit * 4 + 20;
}

/** A node's free-form properties, with the ones a result reads (declared, not checked). */
type NodeProps = Record<string, Plain> & {
  id: string;
  name?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
};
type ChunkProps = NodeProps & { index?: number | null; text?: string | null };
type EntityProps = NodeProps & { type?: string | null };

/** The engine's score (a word statement) or similarity (a vector statement) of a hit. */
interface Scored {
  score?: number;
  similarity?: number;
}
/**
 * The rows of each plane's statements (search/*, memories/search and memories/vector; declared, not checked), once
 * their node is known present: as read, the node map is null or has no id when the node was deleted while it was
 * read (isPresent), which `Read` says.
 */
type MemoryHitRow = Scored & { memory: Pick<MemoryProps, 'id' | 'name' | 'content'>; whole?: MemoryProps };
/** A word statement's row: its hits, and what it read around them (cypher/search/around_found.cypher). */
type WordsRow<R> = FullTextRow<R> & { around: AroundRow[] | null };
type ChunkHitRow = Scored & { chunk: ChunkProps; document_title: string | null };
type EntityHitRow = Scored & { entity: EntityProps; labels: string[] | null };
/** A row P as its statement reads it: its node map K may be null. */
type Read<P, K extends keyof P> = Omit<P, K> & { [X in K]: P[X] | null };

function chunkView(row: ChunkHitRow, score: number): View {
  const p = row.chunk;
  const title = row.document_title ?? null;
  const index = typeof p.index === 'number' ? p.index : null;
  return {
    id: p.id,
    type: 'chunk',
    label: 'Chunk',
    name: title !== null && index !== null ? `${title} #${index + 1}` : (title ?? p.id),
    properties: { ...visibleProps(p, TOP_LEVEL), document_title: title },
    plane: 'document',
    score,
    created_at: p.created_at ?? null,
    updated_at: p.updated_at ?? null,
  };
}

function entityView(row: EntityHitRow, score: number): View {
  const p = row.entity;
  const labels = visibleLabels(row.labels).filter((l) => l !== 'Entity');
  return {
    id: p.id,
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

function searchMemoryView(memory: MemoryProps, score: number): View {
  const m = memoryView(memory, 'search');
  return {
    id: m.id!,
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
  nodes: Answer<typeof searchNodeSchema>[];
  edges: GraphEdgeView[];
  mode: SearchMode;
  degraded: Degraded[];
}

/** How one plane is searched: its statements and how its rows become ranked hits. */
interface PlaneSpec<R extends Scored, P extends R> {
  n: number;
  words: readonly [string, Record<string, unknown>];
  near: readonly [string, Record<string, unknown>];
  /** Whether the row's node is present: not deleted while it was read (isPresent). */
  present: (r: R) => r is P;
  /** The id of the row's node. */
  id: (r: P) => string;
  /** The plane's nodes known then and put back (gone or changed since). */
  putBackOf: (t: Then) => KnownNode[];
  /** A node put back as a row of the plane's statements. */
  row: (n: KnownNode) => P;
  text: (r: P) => string;
  view: (r: P, score: number) => View;
  /**
   * For a plane ranked on part of each node (memories): the row with the node read whole. Rows of the vector
   * statement are then partial; word rows (wordsWhole) and rows put back (known_at) are whole already.
   */
  whole?: (r: P, props: MemoryProps) => P;
  /** For such a plane: a word statement's row made whole, its statement having read the node whole ($around). */
  wordsWhole?: (r: P) => P;
}

type Hit = RankedHit<ViewOf>;

/** A plane's search with its row type settled: reads give ranked hits, less the ids `then` leaves out. */
interface Plan {
  plane: Plane;
  /** The word hits; what the statement read around them goes to `around`. */
  words: (tx: Reader, extra: number, limit: number, then: Then | null, around: Around) => Promise<Hit[]>;
  near: (tx: Reader, question: Question, then: Then | null) => Promise<Hit[]>;
  /** How many hits each side ranks. */
  n: number;
  putBackOf: (t: Then) => KnownNode[];
  /** The nodes put back, as word hits (score 0: wordsThen ranks them). */
  back: (t: Then) => Hit[];
  /** The nodes put back that `similar` (id to cosine) found near, as meaning hits. */
  backNear: (t: Then, similar: Map<string, number>) => Hit[];
}

function plan<R extends Scored, P extends R>(plane: Plane, s: PlaneSpec<R, P>): Plan {
  const whole = s.whole;
  const hit = (r: P, score: number, partial = whole !== undefined): Hit => ({
    id: s.id(r),
    item: {
      partial,
      view: (fused, props) => {
        if (!partial) return s.view(r, fused);
        return whole && props ? s.view(whole(r, props), fused) : null;
      },
    },
    text: s.text(r),
    score,
  });
  // A node deleted while the statement read it is left out; with known_at, so are the ids `then` leaves out.
  const left = <T extends R>(rows: T[], then: Then | null): (T & P)[] =>
    rows.filter((r): r is T & P => s.present(r) && !then?.left.has(s.id(r)));
  const [words, wordParams] = s.words;
  const [near, nearParams] = s.near;
  return {
    plane,
    words: async (tx, extra, limit, then, around) => {
      // With known_at, more rows are read so that those left out do not shorten the ranking.
      // One row: whether the words were queried alone, the hits and their edges (src/db/fullText.ts).
      const row = await fullTextRow<WordsRow<R>>(tx, words, {
        ...wordParams,
        project_id: String(wordParams.project_id),
        lucene: String(wordParams.lucene),
        candidates: s.n + extra,
        limit: limit + extra,
      });
      around.add(row?.around);
      return left(row?.hits ?? [], then)
        .slice(0, limit)
        .map((r) => (s.wordsWhole ? hit(s.wordsWhole(r), r.score ?? 0, false) : hit(r, r.score ?? 0)));
    },
    near: async (tx, question, then) =>
      left(await nearest<R>(tx, near, nearParams, question, s.n), then).map((r) => hit(r, r.similarity)),
    n: s.n,
    putBackOf: s.putBackOf,
    back: (t) => s.putBackOf(t).map((n) => hit(s.row(n), 0, false)),
    backNear: (t, similar) =>
      s
        .putBackOf(t)
        .filter((n) => similar.has(n.id))
        .map((n) => hit(s.row(n), similar.get(n.id)!, false)),
  };
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
  const extra = then?.left.size ?? 0;
  const base = { project_id: projectId, lucene, limit, valid_at: validAtTime, per_node: EDGES_PER_NODE };
  // Known then: a node put back has the properties it had then, those of its plane's rows.
  const known = (t: Then, label: string): KnownNode[] => putBack(t, label, validAtTime, now);
  /** Per plane: its word statement and vector statement with their filters, and how a row is shown. */
  const spec = (plane: Plane): Plan => {
    if (plane === 'memory') {
      const kinds = filters.memory?.kinds ?? null;
      const episode = filters.memory?.episode ?? null;
      return plan<Read<MemoryHitRow, 'memory'>, MemoryHitRow>(plane, {
        n: candidates(limit, kinds !== null),
        // Each hit whole and with its edges ($around), for the answer to need no statement after the fusion.
        words: ['memories/search', { ...base, ...NO_LINKS, now, kinds, episode, whole: false, around: true }],
        near: ['memories/vector', { project_id: projectId, ...NO_LINKS, now, kinds, episode, valid_at: validAtTime }],
        present: (r): r is MemoryHitRow => isPresent(r.memory),
        id: (r) => r.memory.id,
        putBackOf: (t) => known(t, 'Memory').filter((m) => kinds === null || kinds.includes(String(m.props.kind))),
        row: (m) => {
          const props = m.props as unknown as MemoryProps;
          return { memory: props, whole: props, score: 0 };
        },
        text: (r) => memoryText(r.memory),
        view: (r, score) => searchMemoryView(r.whole!, score),
        whole: (r, props) => ({ ...r, whole: props }),
        wordsWhole: (r) => ({ ...r, whole: r.memory as MemoryProps }),
      });
    }
    if (plane === 'document') {
      const documentIds = filters.document?.document_ids ?? null;
      const tags = filters.document?.tags ? filters.document.tags.map(normalizeName) : null;
      const params = { document_ids: documentIds, tags };
      return plan<Read<ChunkHitRow, 'chunk'>, ChunkHitRow>(plane, {
        n: candidates(limit, documentIds !== null || tags !== null),
        words: ['search/chunks', { ...base, ...params }],
        near: ['search/chunks_vector', { project_id: projectId, ...params }],
        present: (r): r is ChunkHitRow => isPresent(r.chunk),
        id: (r) => r.chunk.id,
        // Chunks put back carry no title; with a document filter none are put back.
        putBackOf: (t) => (documentIds !== null || tags !== null ? [] : known(t, 'Chunk')),
        row: (c) => ({ chunk: c.props as unknown as ChunkProps, document_title: null, score: 0 }),
        text: (r) => r.chunk.text ?? '',
        view: chunkView,
      });
    }
    const types = filters.entity?.types ?? null;
    return plan<Read<EntityHitRow, 'entity'>, EntityHitRow>(plane, {
      n: candidates(limit, types !== null),
      words: ['search/entities', { ...base, types }],
      near: ['search/entities_vector', { project_id: projectId, types }],
      present: (r): r is EntityHitRow => isPresent(r.entity),
      id: (r) => r.entity.id,
      putBackOf: (t) => known(t, 'Entity').filter((e) => types === null || types.includes(String(e.props.type))),
      row: (e) => ({ entity: e.props as unknown as EntityProps, labels: e.labels, score: 0 }),
      text: (r) => r.entity.name ?? '',
      view: entityView,
    });
  };
  const plans = request.planes.map(spec);
  const around = new Around(EDGES_PER_NODE);
  // The planes' statements go out side by side (each its own auto-commit read: Graph.readEach).
  const wordsIn = async (tx: Reader) =>
    new Map<Plane, Hit[]>(
      await Promise.all(plans.map(async (p) => [p.plane, await p.words(tx, extra, limit, then, around)] as const)),
    );
  // What known_at puts back is ranked by meaning too, in the index hits' order (docs/facts.md).
  const meaningOf = async (question: Question): Promise<Map<Plane, Hit[]>> => {
    const near = new Map<Plane, Hit[]>();
    if (servedMode(mode, question) === 'lexical') return near;
    const [hits, similar] = await Promise.all([
      deps.graph.readEach(
        async (each) =>
          new Map<Plane, Hit[]>(
            await Promise.all(plans.map(async (p) => [p.plane, await p.near(each, question, then)] as const)),
          ),
      ),
      then
        ? meaningThen(
            deps.graph,
            deps.embedder,
            projectId,
            request.query,
            question,
            plans.flatMap((p) => p.putBackOf(then)),
          )
        : new Map<string, number>(),
    ]);
    for (const p of plans) {
      const nearHits = hits.get(p.plane) ?? [];
      near.set(p.plane, then ? nearThen(nearHits, p.backNear(then, similar), p.n) : nearHits);
    }
    return near;
  };
  // The words are read while the question is embedded and its neighbours are read (the two reads run side
  // by side); a semantic question the engine cannot embed is served lexically, and then reads them after.
  // Words alone (asked, or no embedding engine configured) are read by the work that fuses and reads the
  // edges. Every statement is an auto-commit read (Graph.readEach), the planes' side by side.
  const wordsOnly = mode === 'lexical' || !deps.embedder;
  const meaning = embedQuestion(deps, request.query, mode).then(async (question) => ({
    question,
    near: await meaningOf(question),
  }));
  const [{ question, near: nearByPlane }, early] = await Promise.all([
    meaning,
    mode === 'semantic' || wordsOnly ? Promise.resolve(null) : deps.graph.readEach(wordsIn),
  ]);
  const served = servedMode(mode, question);
  return deps.graph.readEach(async (tx) => {
    const words = served === 'semantic' ? new Map<Plane, Hit[]>() : (early ?? (await wordsIn(tx)));
    const rankings: Ranking<ViewOf>[] = [];
    for (const p of plans) {
      const near = nearByPlane.get(p.plane) ?? [];
      const read = words.get(p.plane) ?? [];
      const lexical = then && served !== 'semantic' ? wordsThen(request.query, read, p.back(then)) : read;
      rankings.push(...hybridRankings(p.plane, served, request.query, lexical, near));
    }
    const fused = fuseRankings(rankings, request.query, limit);
    const ids = fused.map((f) => f.id);
    // What the word statements did not read (src/search/around.ts) is read in one statement: the edges and the
    // memories the meaning side alone found, whole; one the meaning read (its own transaction) found but that is
    // gone by now is left out.
    const missing = around.missing(ids);
    const partial = fused.filter((f) => f.item.partial).map((f) => f.id);
    const answer =
      missing.length > 0 || partial.length > 0
        ? await tx.one<AnsweredRow & { edges: KeyedEdge[] }>('search/answered', {
            ids: missing,
            results: ids,
            whole: partial,
            project_id: projectId,
            per_node: EDGES_PER_NODE,
            valid_at: validAtTime,
          })
        : undefined;
    const { memories: whole } = answeredParts(answer);
    const edges = around.edgesOf(ids, answer?.edges ?? []);
    const answered = fused.flatMap((f) => {
      const view = f.item.view(f.match.score, whole.get(f.id));
      return view ? [{ id: f.id, node: { ...view, match: f.match } }] : [];
    });
    const nodes = answered.map((a) => a.node);
    const kept = answered.map((a) => a.id);
    const shown = then ? edgesThen(then, edges, kept, validAtTime, EDGES_PER_NODE) : edges;
    return { nodes, edges: shown.map((e) => edgeView(e, false)), mode: served, degraded: question.degraded };
  });
}
