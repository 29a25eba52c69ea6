// Gathers a compile's candidates: per plane, the full-text hits of the query and its neighbours by
// meaning (vector indexes; docs/recall.md), or, with no query, the most recent items; plus the
// subject's neighbourhood within `hops` and the memories linked to it. Only committed items;
// memories only while recallable.
import type { Graph, Row, Tx, TxMeta } from '../db/graph.js';
import { luceneQuery } from '../db/tenant.js';
import { fullTextHits } from '../db/fullText.js';
import { contentWords, exactIdentifiers, identifierTokens, wordWeight } from '../search/hybrid.js';
import { nearest, type Question } from '../search/meaning.js';
import type { AskedQuestion } from '../memories/speakers.js';
import { normalizeName } from '../entities/identity.js';
import { subtractDuration, parseDuration } from '../slices/duration.js';
import type { Plane, SliceDefinition } from '../slices/definition.js';
import { meaningThen, nearThen, putBack, readThen, wordsThen, type Then } from '../search/known.js';
import type { Embedder, EmbedderDeps } from '../embeddings/model.js';
import type { GraphDeps } from '../shared/deps.js';
import type { Match } from '../search/hybrid.js';
import { candidatesFor } from '../memories/recall.js';
import { graphRecall, RECALL_CHANNELS } from '../memories/graphRecall.js';
import { validAt, type KnownNode } from '../deltas/known.js';
import { goneAround, knownNode, knownWalk } from '../graph/known.js';
import { isPresent } from '../graph/views.js';

export type CandidateSource = 'query' | 'meaning' | 'recent' | 'linked' | 'neighbourhood' | 'recall';

export interface Candidate {
  id: string;
  plane: Plane;
  type: 'memory' | 'chunk' | 'entity';
  label: string;
  name: string;
  text: string;
  created_at: string;
  /** memory kind; null elsewhere */
  kind: string | null;
  /** memory date_observed (YYYY-MM-DD) */
  date: string | null;
  /** chunk position in its document */
  chunk_index: number | null;
  /** distance from the subject, for neighbourhood entities and linked memories */
  hops: number | null;
  /**
   * rank (from 1) of the candidate in each source that found it; a query hit's weight is the share
   * of the question's content words it holds, 0 below half (hybrid only), a meaning hit carries its similarity
   */
  sources: { source: CandidateSource; rank: number; weight?: number; similarity?: number }[];
  /** the question's identifiers found verbatim in the item (ranked first) */
  exact: string[];
  /** A memory ranked by memory recall's channels (source 'recall'): why recall ranked it (its `match`). */
  recall?: Omit<Match, 'score' | 'exact'>;
}

export interface GatherRequest {
  projectId: string;
  def: SliceDefinition;
  query: string | null;
  asOf: string | null;
  /** Transaction time (docs/facts.md): only what the graph knew then; null: now. */
  knownAt?: string | null;
  now: string;
  /** the question embedded (src/search/meaning.ts); its vector is null without meaning */
  question?: Question | null;
  /** The question as meaning and the words read it (src/memories/speakers.ts); `question` embeds its meaning. */
  asked?: AskedQuestion | null;
  /** With known_at: embeds put-back items that have no vector to reuse (src/search/known.ts). */
  embedder?: Embedder | null;
  /**
   * What memory recall needs (src/memories/graphRecall.ts): given, a query's memory plane is ranked by recall's
   * channels, as memory search ranks it, unless the compile reads another time (as_of, known_at, a time window).
   */
  recall?: (GraphDeps & EmbedderDeps) | null;
}

export interface Gathered {
  candidates: Map<Plane, Candidate[]>;
  subject: { id: string; name: string } | null;
  /** With known_at: what the graph knew then (the compile's edges are read with it). */
  then: Then | null;
}

/** Candidates taken per source: enough to fill the budget with short items, bounded for latency. */
export function perSourceLimit(maxTokens: number): number {
  return Math.min(1000, 40 + Math.ceil(maxTokens / 20));
}

/** The window's bounds as ISO date-times: a rolling window ends at as_of, else at the compile. */
export function windowBounds(
  def: SliceDefinition,
  asOf: string | null,
  now: string,
): { from: string | null; to: string | null; field: string } {
  const w = def.time_window;
  if (!w) return { from: null, to: null, field: 'created_at' };
  if ('last' in w) {
    const end = asOf ?? now;
    return { from: subtractDuration(new Date(end), parseDuration(w.last)!).toISOString(), to: end, field: w.field };
  }
  return { from: w.from ?? null, to: w.to ?? null, field: w.field };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

function candidate(plane: Plane, row: Row, source: CandidateSource, rank: number): Candidate {
  const type = plane === 'memory' ? 'memory' : plane === 'document' ? 'chunk' : 'entity';
  const chunkIndex = typeof row.chunk_index === 'number' ? row.chunk_index : null;
  const name = plane === 'document' ? `${str(row.title) || 'Untitled'} #${(chunkIndex ?? 0) + 1}` : str(row.name);
  return {
    id: str(row.id),
    plane,
    type,
    label: plane === 'memory' ? 'Memory' : plane === 'document' ? 'Chunk' : str(row.label) || 'Entity',
    name,
    text: str(row.text),
    // Epoch milliseconds from Cypher: decoding a DateTime in the driver costs more than the rest of the row.
    created_at: typeof row.created_ms === 'number' ? new Date(row.created_ms).toISOString() : '',
    kind: row.kind === undefined ? null : (row.kind as string | null),
    date: typeof row.date_observed === 'string' ? row.date_observed : null,
    chunk_index: chunkIndex,
    hops: typeof row.hops === 'number' ? row.hops : null,
    sources: [
      {
        source,
        rank,
        // Recall's rank stands for its words and its meaning both (docs/recall.md, "Compile and brief").
        ...(source === 'recall' ? { weight: 2 } : {}),
        ...(typeof row.similarity === 'number' ? { similarity: row.similarity } : {}),
      },
    ],
    exact: [],
    ...(source === 'recall' && row.match ? { recall: row.match as Candidate['recall'] } : {}),
  };
}

/**
 * The memory plane of a compile ranked by memory recall (src/memories/graphRecall.ts): every channel, the floor
 * under meaning and the rare-word rule, as memory search answers the query; its memories read as the plane's
 * statements give them (context/memories_recalled), each with recall's `match`.
 */
async function recalledMemories(
  deps: GraphDeps & EmbedderDeps,
  req: GatherRequest,
  question: Question,
  params: { kinds: string[] | null; episode: string | null; valid_at: string },
  meta: TxMeta,
): Promise<Row[]> {
  const limit = perSourceLimit(req.def.budget.max_tokens);
  const { fused } = await graphRecall(deps, {
    projectId: req.projectId,
    query: req.query ?? '',
    limit,
    candidates: candidatesFor(limit),
    base: {
      project_id: req.projectId,
      now: req.now,
      valid_at: params.valid_at,
      kinds: params.kinds,
      episode: params.episode,
    },
    channels: new Set(RECALL_CHANNELS),
    semanticOnly: false,
    question,
    ...(req.asked ? { asked: req.asked } : {}),
  });
  if (fused.length === 0) return [];
  const rows = await deps.graph.readRows(
    'context/memories_recalled',
    { ids: fused.map((r) => r.id), project_id: req.projectId },
    meta,
  );
  const matches = new Map(fused.map((r) => [r.id, r.match]));
  return rows.map((row) => {
    const match = matches.get(str(row.id));
    // A match is plain data (numbers, strings, nulls): it travels in the row to candidate().
    return match ? { ...row, similarity: match.similarity, match: match as unknown as Row } : row;
  });
}

/**
 * Adds a source's rows to the plane's candidates, merging items several sources found. A node deleted while the
 * statement read it comes back without its id (isPresent) and is left out.
 */
function collect(into: Map<string, Candidate>, plane: Plane, rows: Row[], source: CandidateSource): void {
  rows.forEach((row, i) => {
    if (!isPresent(row)) return;
    const c = candidate(plane, row, source, i + 1);
    const known = into.get(c.id);
    if (!known) into.set(c.id, c);
    else {
      known.sources.push(c.sources[0]!);
      if (c.hops !== null && (known.hops === null || c.hops < known.hops)) known.hops = c.hops;
    }
  });
}

interface SubjectFound {
  subject: { id: string; name: string };
  /** the entity plane's neighbourhood rows (filtered by the slice's entity filters) */
  entities: Row[];
  linked: Row[];
  /** With known_at: memories linked to the walk by relationships known then and gone since. */
  linkedGone: { node: KnownNode; hops: number }[];
}

/**
 * cypher/context/neighbourhood.cypher's rows (declared, not checked; a type, not an interface, so
 * that they are Rows too).
 */
type NeighbourhoodRow = {
  id: string;
  name: string | null;
  label: string;
  text: string | null;
  /** null when created_at is not a date-time */
  created_ms: number | null;
  /** an integer (min of path lengths) */
  hops: number;
};

/** A neighbourhood row (as context/neighbourhood returns it) of an entity as the graph knew it. */
function walkedRow(n: KnownNode, hops: number): Row {
  return {
    id: n.id,
    name: n.props.name ?? null,
    label: n.props.type ?? n.labels.filter((l) => !['Knowledge', 'Entity', 'Pending'].includes(l))[0] ?? 'Entity',
    text: n.props.description ?? null,
    created_ms: createdMs(n.props),
    hops,
  };
}

/** The subject as the graph knew it at known_at: by id, or by its name (and type) then. */
async function subjectThen(tx: Tx, projectId: string, then: Then, def: SliceDefinition): Promise<KnownNode | null> {
  const ref = def.subject!;
  const isEntity = (n: KnownNode | null): n is KnownNode => n !== null && n.labels.includes('Entity');
  if ('id' in ref) {
    const n = await knownNode(tx, projectId, then.known, ref.id);
    return isEntity(n) ? n : null;
  }
  const wanted = normalizeName(ref.name);
  const named = (n: KnownNode) =>
    n.props.normalized_name === wanted && (ref.type === undefined || n.labels.includes(ref.type));
  const found: KnownNode[] = [...then.known.nodes.values()].filter((n) => n.labels.includes('Entity') && named(n));
  const now = await tx.one('context/subject', {
    project_id: projectId,
    id: null,
    normalized_name: wanted,
    type: ref.type ?? null,
  });
  if (now && !then.left.has(str(now.id))) {
    const n = await knownNode(tx, projectId, then.known, str(now.id));
    if (isEntity(n)) found.push(n);
  }
  return found.sort((a, b) => (a.id < b.id ? -1 : 1))[0] ?? null;
}

/**
 * The subject's walk as the graph knew it at known_at (docs/facts.md): over the entity-to-entity
 * relationships known then, present or gone since (src/graph/known.ts, as the graph neighbourhood
 * walks), none learnt since; the rows context/neighbourhood would have given then.
 */
async function subjectChainThen(
  tx: Tx,
  then: Then,
  def: SliceDefinition,
  base: Record<string, unknown> & { project_id: string; valid_at: string; as_of: string | null },
  entityParams: { types: string[] | null; shape_ids: string[] | null },
  memoryParams: Record<string, unknown>,
): Promise<SubjectFound | null> {
  const projectId = base.project_id;
  const subject = await subjectThen(tx, projectId, then, def);
  if (!subject) return null;
  const walked = (
    await knownWalk(tx, projectId, then.known, subject, {
      hops: def.hops,
      validAt: base.valid_at,
      types: def.relationship_types,
    })
  ).filter(({ node }) => base.as_of === null || Date.parse(String(node.props.created_at)) <= Date.parse(base.as_of));
  const limit = Number(base.limit);
  const around = walked.slice(0, limit);
  const { types, shape_ids: shapeIds } = entityParams;
  const entities = !def.planes.includes('entity')
    ? []
    : walked
        .filter(({ node }) => types === null || node.labels.some((l) => types.includes(l)))
        .filter(({ node }) => shapeIds === null || shapeIds.includes(String(node.props.shape_id)))
        .slice(0, limit)
        .map(({ node, hops }) => walkedRow(node, hops));
  const wantsMemories = def.planes.includes('memory') && around.length > 0;
  const linked = wantsMemories
    ? await tx.run('context/linked_memories', {
        ...memoryParams,
        entities: around.map(({ node, hops }) => ({ id: node.id, hops })),
      })
    : [];
  const hopsOf = new Map(around.map(({ node, hops }) => [node.id, hops]));
  const linkedGone = new Map<string, { node: KnownNode; hops: number }>();
  if (wantsMemories)
    for (const { rel, other } of await goneAround(tx, projectId, then.known, [...hopsOf.keys()])) {
      if (!other.labels.includes('Memory') || !validAt(rel.props, base.valid_at)) continue;
      const hops = hopsOf.get(hopsOf.has(rel.source) ? rel.source : rel.target)!;
      const had = linkedGone.get(other.id);
      if (!had || hops < had.hops) linkedGone.set(other.id, { node: other, hops });
    }
  return {
    subject: { id: subject.id, name: str(subject.props.name) },
    entities,
    linked,
    linkedGone: [...linkedGone.values()],
  };
}

/**
 * The subject, its neighbourhood within `hops` and the memories linked to it, in one transaction:
 * the neighbourhood is walked unfiltered for linking memories, then filtered for the entity plane.
 */
async function subjectChain(
  tx: Tx,
  def: SliceDefinition,
  base: Record<string, unknown>,
  entityParams: Record<string, unknown> & { types: string[] | null; shape_ids: string[] | null },
  memoryParams: Record<string, unknown>,
): Promise<SubjectFound | null> {
  const ref = def.subject!;
  const row = await tx.one('context/subject', {
    project_id: base.project_id,
    id: 'id' in ref ? ref.id : null,
    normalized_name: 'name' in ref ? normalizeName(ref.name) : null,
    type: 'name' in ref ? (ref.type ?? null) : null,
  });
  if (!row) return null;
  const subject = { id: str(row.id), name: str(row.name) };
  const walk = { subject_id: subject.id, hops: def.hops, relationship_types: def.relationship_types };
  const around = await tx.run<NeighbourhoodRow>('context/neighbourhood', {
    ...base,
    types: null,
    shape_ids: null,
    ...walk,
  });
  const wantsEntities = def.planes.includes('entity');
  const entities = !wantsEntities
    ? []
    : entityParams.types === null && entityParams.shape_ids === null
      ? around
      : await tx.run<NeighbourhoodRow>('context/neighbourhood', { ...entityParams, ...walk });
  const linked =
    def.planes.includes('memory') && around.length > 0
      ? await tx.run('context/linked_memories', {
          ...memoryParams,
          entities: around.map((r) => ({ id: str(r.id), hops: r.hops })),
        })
      : [];
  return { subject, entities, linked, linkedGone: [] };
}

/**
 * The plane searches and the subject's walk are independent reads: they run at once, each in its
 * own READ transaction (Neo4j reads are read-committed either way, so one transaction would not
 * give them a common snapshot), and the compile waits for the slowest instead of their sum.
 */
export async function gatherCandidates(graph: Graph, req: GatherRequest, meta: TxMeta = {}): Promise<Gathered> {
  const question = req.question?.vector ? req.question : null;
  const { def, projectId } = req;
  const limit = perSourceLimit(def.budget.max_tokens);
  const lucene = req.query ? luceneQuery(req.query, projectId) : null;
  const knownAt = req.knownAt ?? null;
  // Valid time (docs/facts.md): relationships walked and memories recalled hold at as_of, else at
  // known_at, else now; a rolling window ends then too.
  const validTime = req.asOf ?? knownAt ?? req.now;
  const window = windowBounds(def, req.asOf ?? knownAt, req.now);
  const then = knownAt ? await readThen(graph, projectId, knownAt) : null;
  const extra = then?.left.size ?? 0;
  const base = {
    project_id: projectId,
    as_of: req.asOf,
    now: req.now,
    valid_at: validTime,
    unknown: then?.known.unknown ?? [],
    changed: then?.known.changed ?? [],
    limit,
    lucene,
    from: window.from,
    to: window.to,
    window_field: window.field,
  };
  const f = def.filters;
  const memoryParams = { ...base, kinds: f.memory?.kinds ?? null, episode: f.memory?.episode ?? null };
  const documentParams = {
    ...base,
    document_ids: f.document?.document_ids ?? null,
    tags: f.document?.tags?.map(normalizeName) ?? null,
  };
  const entityParams = { ...base, types: f.entity?.types ?? null, shape_ids: f.entity?.shape_ids ?? null };
  const fetchCount = (filtered: boolean) => (filtered ? Math.min(limit * 20 + 200, 5000) : limit * 2 + 20) + extra;
  const source: CandidateSource = lucene ? 'query' : 'recent';
  const windowed = window.from !== null || window.to !== null || req.asOf !== null;
  const search = (plane: Plane, statement: string, params: Record<string, unknown>, filtered: boolean) => {
    if (!def.planes.includes(plane)) return Promise.resolve([]);
    const name = `context/${statement}_${lucene ? 'search' : 'recent'}`;
    const all = { ...params, candidates: fetchCount(filtered) };
    // A plane's words may be queried alone; the statement answers one row (src/db/fullText.ts).
    return lucene
      ? graph.readEach((each) => fullTextHits<Row>(each, name, { ...all, project_id: projectId, lucene, limit }), meta)
      : graph.readRows(name, all, meta);
  };

  // The memory plane of a query read now is ranked by memory recall's channels, as memory search ranks it.
  const recalls = !!(req.recall && lucene && question && !then && !windowed && def.planes.includes('memory'));
  const near = (plane: Plane, statement: string, params: Record<string, unknown>) =>
    lucene && question && def.planes.includes(plane) && !(plane === 'memory' && recalls)
      ? graph.readEach((each) => nearest(each, `context/${statement}_vector`, params, question, limit), meta)
      : Promise.resolve([]);

  const [memories, chunks, entities, found, memoriesNear, chunksNear, entitiesNear] = await Promise.all([
    recalls
      ? recalledMemories(req.recall!, req, question!, memoryParams, meta)
      : search(
          'memory',
          'memories',
          memoryParams,
          memoryParams.kinds !== null || memoryParams.episode !== null || windowed,
        ),
    search(
      'document',
      'chunks',
      documentParams,
      documentParams.document_ids !== null || documentParams.tags !== null || windowed,
    ),
    search(
      'entity',
      'entities',
      entityParams,
      entityParams.types !== null || entityParams.shape_ids !== null || req.asOf !== null,
    ),
    def.subject
      ? graph.read(
          (tx) =>
            then
              ? subjectChainThen(tx, then, def, base, entityParams, memoryParams)
              : subjectChain(tx, def, base, entityParams, memoryParams),
          meta,
        )
      : Promise.resolve(null),
    near('memory', 'memories', memoryParams),
    near('document', 'chunks', documentParams),
    near('entity', 'entities', entityParams),
  ]);

  const known = then
    ? asKnown(then, req, def, window, validTime, source, { memories, chunks, entities, found })
    : { memories, chunks, entities, found, back: null };
  // With known_at, what is put back is near the question by meaning too, in the index hits' order.
  const similar =
    then && known.back && lucene && question
      ? await meaningThen(
          graph,
          req.embedder ?? null,
          projectId,
          req.query ?? '',
          question,
          [...known.back.values()].flat().flatMap((r) => {
            const n = then.known.nodes.get(str(r.id));
            return n ? [n] : [];
          }),
        )
      : new Map<string, number>();
  const leftOut = (rows: Row[]): Row[] => (then ? rows.filter((r) => !then.left.has(str(r.id))) : rows);
  const nearAt = (plane: Plane, rows: Row[]): Row[] => {
    const kept = leftOut(rows);
    const back = (known.back?.get(plane) ?? [])
      .filter((r) => similar.has(str(r.id)))
      .map((r) => ({ ...r, similarity: similar.get(str(r.id))! }));
    if (back.length === 0) return kept;
    const hit = (r: Row) => ({ id: str(r.id), score: Number(r.similarity), row: r });
    return nearThen(kept.map(hit), back.map(hit), limit).map((h) => h.row);
  };
  // Collected in a fixed order (plane searches by words, then by meaning, then the neighbourhood,
  // then linked memories), so each candidate lists its sources the same way every time.
  const byPlane = new Map<Plane, Map<string, Candidate>>(def.planes.map((p) => [p, new Map()]));
  const into = (plane: Plane, rows: Row[], from: CandidateSource) => {
    const found = byPlane.get(plane);
    if (found) collect(found, plane, rows, from);
  };
  into('memory', known.memories, recalls ? 'recall' : source);
  into('document', known.chunks, source);
  into('entity', known.entities, source);
  into('memory', nearAt('memory', memoriesNear), 'meaning');
  into('document', nearAt('document', chunksNear), 'meaning');
  into('entity', nearAt('entity', entitiesNear), 'meaning');
  if (known.found) {
    into('entity', known.found.entities, 'neighbourhood');
    into('memory', known.found.linked, 'linked');
  }
  const candidates = new Map<Plane, Candidate[]>();
  const words = question ? contentWords(req.query ?? '') : null;
  const identifiers = identifierTokens(req.query ?? '');
  for (const [plane, items] of byPlane) {
    for (const c of items.values()) {
      const text = `${c.name}\n${c.text}`;
      c.exact = exactIdentifiers(identifiers, text);
      // Hybrid: a word hit counts by the share of the question it holds, nothing below half (src/search/hybrid.ts).
      if (words) for (const s of c.sources) if (s.source === 'query') s.weight = wordWeight(words, text);
    }
    candidates.set(plane, [...items.values()]);
  }
  return { candidates, subject: found?.subject ?? null, then };
}

type Window = ReturnType<typeof windowBounds>;

function inWindow(props: Row, window: Window): boolean {
  const field =
    window.field === 'date_observed' && typeof props.date_observed === 'string' ? 'date_observed' : 'created_at';
  const t = Date.parse(String(props[field]));
  if (window.from !== null && t < Date.parse(window.from)) return false;
  return !(window.to !== null && t > Date.parse(window.to));
}

const createdMs = (props: Row): number | null => {
  const t = Date.parse(String(props.created_at));
  return Number.isNaN(t) ? null : t;
};

/**
 * The compile's rows as of known_at (docs/facts.md): what the graph did not know then, or has
 * changed since, left out of the plane searches; what it knew then (changed or forgotten since)
 * put back as it was: by the share of the question's words it holds, or by recency without a
 * query. Linked memories changed since are shown as they were, when they held then.
 */
function asKnown(
  then: Then,
  req: GatherRequest,
  def: SliceDefinition,
  window: Window,
  validTime: string,
  source: CandidateSource,
  rows: { memories: Row[]; chunks: Row[]; entities: Row[]; found: SubjectFound | null },
) {
  const f = def.filters;
  const created = (p: Row) => req.asOf === null || Date.parse(String(p.created_at)) <= Date.parse(req.asOf);
  const back = (plane: Plane): Row[] => {
    if (!def.planes.includes(plane)) return [];
    if (plane === 'memory')
      return putBack(then, 'Memory', validTime, req.now)
        .map((n) => n.props)
        .filter(
          (p) =>
            (!f.memory?.kinds || f.memory.kinds.includes(String(p.kind))) &&
            (!f.memory?.episode || p.episode === f.memory.episode) &&
            created(p) &&
            inWindow(p, window),
        )
        .map((p) => ({
          id: p.id ?? null,
          name: p.name ?? null,
          text: p.content ?? null,
          kind: p.kind ?? null,
          date_observed: p.date_observed ?? null,
          created_ms: createdMs(p),
        }));
    if (plane === 'entity')
      return putBack(then, 'Entity', validTime, req.now)
        .filter((n) => !f.entity?.types || n.labels.some((l) => f.entity!.types!.includes(l)))
        .filter((n) => !f.entity?.shape_ids || f.entity.shape_ids.includes(String(n.props.shape_id)))
        .filter((n) => created(n.props))
        .map((n) => ({
          id: n.props.id ?? null,
          name: n.props.name ?? null,
          label: n.props.type ?? n.labels.filter((l) => !['Knowledge', 'Entity'].includes(l))[0] ?? 'Entity',
          text: n.props.description ?? null,
          created_ms: createdMs(n.props),
        }));
    // Chunks put back carry no document title; with a document filter none are put back.
    if (f.document?.document_ids || f.document?.tags) return [];
    return putBack(then, 'Chunk', validTime, req.now)
      .map((n) => n.props)
      .filter((p) => created(p) && inWindow(p, window))
      .map((p) => ({
        id: p.id ?? null,
        title: null,
        chunk_index: p.index ?? null,
        text: p.text ?? null,
        created_ms: createdMs(p),
      }));
  };
  const backRows = new Map<Plane, Row[]>(def.planes.map((p) => [p, back(p)]));
  const merge = (read: Row[], plane: Plane): Row[] => {
    const kept = read.filter((r) => !then.left.has(str(r.id)));
    const extra = backRows.get(plane) ?? [];
    if (source === 'query') {
      const hit = (r: Row) => ({ id: str(r.id), item: r, text: `${str(r.name)}\n${str(r.text)}`, score: 0 });
      return wordsThen(req.query ?? '', kept.map(hit), extra.map(hit)).map((h) => h.item);
    }
    return [...kept, ...extra].sort(
      (a, b) => Number(b.created_ms ?? 0) - Number(a.created_ms ?? 0) || (str(a.id) < str(b.id) ? -1 : 1),
    );
  };
  const kinds = f.memory?.kinds;
  const episode = f.memory?.episode;
  const recallable = (p: Row) =>
    validAt(p, validTime) &&
    (!kinds || kinds.includes(String(p.kind))) &&
    (!episode || p.episode === episode) &&
    (typeof p.forget_after !== 'string' || Date.parse(p.forget_after) > Date.parse(req.now));
  // Memories linked to the walk by relationships gone since, as they were then, with the statement's rules.
  const linkedGone = (rows.found?.linkedGone ?? [])
    .filter(({ node }) => recallable(node.props) && created(node.props) && inWindow(node.props, window))
    .map(({ node, hops }) => ({
      id: node.id,
      name: node.props.name ?? null,
      text: node.props.content ?? null,
      kind: node.props.kind ?? null,
      date_observed: node.props.date_observed ?? null,
      created_ms: createdMs(node.props),
      hops,
    }));
  const found = rows.found
    ? {
        ...rows.found,
        linked: [
          ...rows.found.linked.flatMap((r) => {
            const was = then.known.nodes.get(str(r.id));
            if (!then.known.changed.includes(str(r.id)) || !was) return [r];
            const p = was.props;
            if (!validAt(p, validTime) || (kinds && !kinds.includes(String(p.kind)))) return [];
            if (episode && p.episode !== episode) return [];
            return [{ ...r, name: p.name ?? null, text: p.content ?? null, kind: p.kind ?? null }];
          }),
          ...linkedGone.filter((g) => !rows.found!.linked.some((r) => str(r.id) === g.id)),
        ].sort(
          (a, b) =>
            Number(a.hops) - Number(b.hops) ||
            Number(b.created_ms ?? 0) - Number(a.created_ms ?? 0) ||
            (str(a.id) < str(b.id) ? -1 : 1),
        ),
      }
    : null;
  return {
    memories: merge(rows.memories, 'memory'),
    chunks: merge(rows.chunks, 'document'),
    entities: merge(rows.entities, 'entity'),
    found,
    back: backRows,
  };
}
