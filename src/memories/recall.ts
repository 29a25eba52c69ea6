// Ranked recall of a project's committed, still-recallable memories (docs/recall.md): the words
// (full-text index memory_text) and the meaning (vector index memory_embedding) each rank the
// memories, fused into one order by src/search/hybrid.ts. Without a query, the most recent.
import { phase } from '../shared/serverTiming.js';
import type { GraphDeps } from '../shared/deps.js';
import type { Reader } from '../db/graph.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import { isPresent, isWhole, type EdgeReadRow, type GraphEdgeRow } from '../graph/views.js';
import type { MemoryProps } from './views.js';
import { luceneQuery } from '../db/tenant.js';
import { fullTextHits, fullTextRow, type FullTextRow } from '../db/fullText.js';
import { fuseRankings, hybridRankings, identifierTokens, type Match, type SearchMode } from '../search/hybrid.js';
import { embedQuestion, nearest, servedMode, type Degraded, type Question } from '../search/meaning.js';
import type { MemoryKind } from './schemas.js';
import { edgesThen, meaningThen, nearThen, putBack, readThen, wordsThen, type Then } from '../search/known.js';
import type { TimeWindow } from '../search/timeWindows.js';
import { graphRecall, RECALL_CHANNELS, type RecallChannel } from './graphRecall.js';

export interface RecallOptions {
  query: string | undefined;
  limit: number;
  kinds: MemoryKind[] | undefined;
  /** hybrid (default), lexical or semantic. */
  mode?: SearchMode;
  /** Valid time (docs/facts.md): what held then; absent, now (at knownAt when that is given). */
  asOf?: string;
  /** Transaction time (docs/facts.md): only what the graph knew then; absent, now. */
  knownAt?: string;
  /** Only memories of this episode (its key; docs/episodes.md). */
  episode?: string;
  /** Hybrid mode's channels (default: all of RECALL_CHANNELS); semantic mode uses meaning and context of them. */
  channels?: readonly RecallChannel[];
}

/** What a ranking carries of a memory: its id and the text it is ranked on; the rest is read once fused. */
type RankedMemory = Pick<MemoryProps, 'id' | 'name' | 'content'>;

/**
 * A row of memories/search or memories/vector (what ranking reads of the memory, with the engine's score
 * (words) or similarity (meaning)), or a memory known_at puts back, whole (declared, not checked).
 */
interface MemoryHitRow {
  /** Null for a memory deleted while the statement read it (isPresent). */
  memory: RankedMemory | null;
  score?: number;
  similarity?: number;
}

/** A hit of memories/search with $whole: the memory read whole, with the engine's score (declared, not checked). */
interface WholeHitRow {
  /** Null for a memory deleted while the statement read it (isPresent). */
  memory: MemoryProps | null;
  score?: number;
}

/** A row of memories/recent: the memory's properties (declared, not checked). */
interface MemoryRow {
  /** Null for a memory deleted while the statement read it (isPresent). */
  memory: MemoryProps | null;
}

export interface Recalled {
  /** The memories' properties and, for a query, `match` (why each is there). */
  memories: { memory: MemoryProps; match?: Match }[];
  edges: GraphEdgeRow[];
  /** The mode served: semantic or hybrid asked while meaning is unavailable is served lexically. */
  mode: SearchMode;
  degraded: Degraded[];
  /** The channels that ranked this answer (docs/recall.md). */
  channels: RecallChannel[];
  /** The time windows the question named, as the time channel read them. */
  time: TimeWindow[];
}

/** The statements' link parameters when recall reads no channel beyond words and meaning. */
export const NO_LINKS = { links: false, terms: [] as string[], rare_terms: 0 };

/** How many candidates each side ranks before fusion. */
export const candidatesFor = (limit: number): number => limit * 4 + 20;

/** The text an identifier is looked for in: the memory's name and content. */
export function memoryText(memory: Pick<MemoryProps, 'name' | 'content'>): string {
  return `${memory.name ?? ''}\n${memory.content ?? ''}`;
}

export async function recallMemories(
  deps: GraphDeps & EmbedderDeps,
  projectId: string,
  options: RecallOptions,
): Promise<Recalled> {
  const now = new Date().toISOString();
  const mode = options.mode ?? 'hybrid';
  const query = options.query ?? '';
  const asked = query.trim() !== '';
  const lucene = asked ? luceneQuery(query, projectId) : null;
  const validTime = options.asOf ?? options.knownAt ?? now;
  const base = {
    project_id: projectId,
    now,
    valid_at: validTime,
    kinds: options.kinds ?? null,
    episode: options.episode ?? null,
    limit: options.limit,
  };
  const then = options.knownAt ? await readThen(deps.graph, projectId, options.knownAt) : null;
  const backNodes = then
    ? putBack(then, 'Memory', validTime, now).filter(
        // A memory known then has the properties it had then: a memory's.
        (n) => !options.kinds || options.kinds.includes((n.props as unknown as MemoryProps).kind),
      )
    : [];
  const back = backNodes.map((n) => n.props as unknown as MemoryProps);
  const leftOut = <T extends { memory: { id: string } }>(rows: T[]): T[] =>
    then ? rows.filter((r) => !then.left.has(r.memory.id)) : rows;
  if (!asked) {
    const extra = then?.left.size ?? 0;
    // The memories and their edges in one read transaction (a transaction's own cost is a good share of a read's).
    return deps.graph.read(async (tx) => {
      const rows = leftOut(present(await tx.run<MemoryRow>('memories/recent', { ...base, limit: base.limit + extra })));
      const all = [...rows, ...back.map((m) => ({ memory: m }))].sort(newestFirst).slice(0, options.limit);
      const memories = all.map((r) => ({ memory: r.memory }));
      return { memories, edges: await edgesOf(tx, projectId, memories, then), mode, degraded: [], ...NO_CHANNELS };
    });
  }
  // A query with nothing to search for (only punctuation) matches nothing; it is not "no query".
  if (!lucene) return { memories: [], edges: [], mode, degraded: [], ...NO_CHANNELS };
  const candidates = candidatesFor(options.limit);
  // Hybrid and semantic recall of the graph as it is now: every channel asked for (src/memories/graphRecall.ts).
  if (mode !== 'lexical' && deps.embedder && !then) {
    const asked = new Set(options.channels ?? RECALL_CHANNELS);
    const semanticOnly = mode === 'semantic';
    if (semanticOnly) for (const c of ['words', 'episode', 'hops', 'time'] as const) asked.delete(c);
    const recalled = await graphRecall(deps, {
      projectId,
      query,
      limit: options.limit,
      candidates,
      base: { project_id: projectId, now, valid_at: validTime, kinds: base.kinds, episode: base.episode },
      channels: asked,
      semanticOnly,
    });
    const served = servedMode(mode, recalled.question);
    // Meaning unavailable: semantic is served by the words (as before channels), hybrid by what needs no vector.
    if (served === 'lexical' && semanticOnly)
      return recallMemories(deps, projectId, { ...options, mode: 'lexical' }).then((r) => ({
        ...r,
        degraded: recalled.question.degraded,
      }));
    return phase('answer', () =>
      deps.graph.readEach(async (tx) => {
        const ids = recalled.fused.map((f) => f.id);
        const answered =
          ids.length === 0
            ? { memories: new Map<string, MemoryProps>(), edges: [] }
            : await readAnswered(tx, projectId, ids, []);
        const memories = recalled.fused.flatMap((f) => {
          const memory = answered.memories.get(f.id);
          return memory ? [{ memory, match: f.match }] : [];
        });
        return {
          memories,
          edges: answered.edges,
          mode: served,
          degraded: recalled.question.degraded,
          channels: recalled.served,
          time: recalled.windows,
        };
      }),
    );
  }
  const wordsAlone = mode === 'lexical' || !deps.embedder;
  // Words alone, with no identifier in the question and nothing put back (known_at): the fused order is the words'
  // own rank order (one ranking, no exact match to lift a hit), so only the first `limit` hits that pass the
  // filters are read back, from the same window of candidates, whole and with their edges (answerInRankOrder): the
  // same answer with a sixth of the rows (16 clients, 100k memories: 664 -> 882 statements a second, Node CPU 0.80
  // -> 0.47 ms each; .cache/probe/limitAB.ts), in one statement instead of two.
  const inRankOrder = wordsAlone && !then && identifierTokens(query).length === 0;
  const readWords = async (tx: Reader): Promise<Hit[]> => {
    const more = candidates + (then?.left.size ?? 0);
    const found = await fullTextHits<MemoryHitRow>(tx, 'memories/search', {
      ...base,
      ...NO_LINKS,
      lucene,
      limit: more,
      candidates: more,
      whole: false,
      // Each hit's own edges are /v1/search's (cypher/search/around_found.cypher).
      around: false,
      per_node: 0,
    });
    const rows = leftOut(present(found)).slice(0, candidates);
    const hits = rows.map((r) => hitOf(r, r.score ?? 0));
    return then
      ? wordsThen(
          query,
          hits,
          back.map((m) => hitOf({ memory: m, score: 0 }, 0)),
        )
      : hits;
  };
  const readMeaning = async (question: Question): Promise<Hit[]> => {
    const [rows, similar] = await Promise.all([
      deps.graph.readEach((each) =>
        nearest<MemoryHitRow>(each, 'memories/vector', { ...base, ...NO_LINKS }, question, candidates),
      ),
      then ? meaningThen(deps.graph, deps.embedder, projectId, query, question, backNodes) : new Map<string, number>(),
    ]);
    const near = leftOut(present(rows)).map((r) => hitOf(r, r.similarity ?? 0));
    if (!then) return near;
    // What known_at puts back is ranked by meaning in the same order as the index's hits (docs/facts.md).
    const backHits = backNodes
      .filter((n) => similar.has(n.id))
      .map((n) => {
        const similarity = similar.get(n.id)!;
        return hitOf({ memory: n.props as unknown as MemoryProps, similarity }, similarity);
      });
    return nearThen(near, backHits, candidates);
  };
  // In rank order, the first `limit` word hits are the answer: the statement reads them whole, with their edges
  // (memories/search with $whole), so no memories/answered follows (one statement for the whole search).
  const answerInRankOrder = async (tx: Reader, question: Question): Promise<Recalled> => {
    const row = await fullTextRow<FullTextRow<WholeHitRow> & { edges: EdgeReadRow[] | null }>(tx, 'memories/search', {
      ...base,
      ...NO_LINKS,
      lucene,
      limit: options.limit,
      candidates,
      whole: true,
      // Each hit's own edges are /v1/search's (cypher/search/around_found.cypher).
      around: false,
      per_node: 0,
    });
    const rows = present(row?.hits ?? []);
    const answered = answeredParts({ memories: rows.map((r) => r.memory), edges: row?.edges ?? [] });
    const served = servedMode(mode, question);
    const lexical = rows.map((r) => hitOf(r, r.score ?? 0));
    const fused = fuseRankings(hybridRankings('memory', served, query, lexical, []), query, options.limit);
    const memories = fused.flatMap((f) => {
      const memory = answered.memories.get(f.id);
      return memory ? [{ memory, match: f.match }] : [];
    });
    return { memories, edges: answered.edges, mode: served, degraded: question.degraded, ...wordsChannels(served) };
  };
  const backById = new Map(back.map((m) => [m.id, m]));
  const answer = async (tx: Reader, question: Question, lexical: Hit[], semantic: Hit[]): Promise<Recalled> => {
    const served = servedMode(mode, question);
    const fused = fuseRankings(hybridRankings('memory', served, query, lexical, semantic), query, options.limit);
    if (fused.length === 0)
      return { memories: [], edges: [], mode: served, degraded: question.degraded, ...wordsChannels(served) };
    // The few answered memories are read whole, with their edges, in one round trip. What known_at put back
    // has the properties it had then; a memory the meaning read (its own transaction) found but that is gone
    // by now is left out.
    const ids = fused.map((f) => f.id);
    const answered = await readAnswered(tx, projectId, ids, [...backById.keys()]);
    const memories = fused.flatMap((f) => {
      const memory = backById.get(f.id) ?? answered.memories.get(f.id);
      return memory ? [{ memory, match: f.match }] : [];
    });
    const kept = memories.map((m) => m.memory.id);
    const edges = then ? edgesThen(then, answered.edges, kept, null, Number.MAX_SAFE_INTEGER) : answered.edges;
    return { memories, edges, mode: served, degraded: question.degraded, ...wordsChannels(served) };
  };
  // Words alone (asked, or no embedding engine is configured): the words, then the memories and their edges
  // side by side, each an auto-commit read (Graph.readEach: no BEGIN or COMMIT; bench/searchLayers.ts at 20k,
  // in process: p50 10.1 -> 9.2 ms, p95 19.8 -> 15.7 ms against one read transaction).
  if (wordsAlone) {
    const question = await embedQuestion(deps, query, mode);
    if (inRankOrder) return deps.graph.readEach((each) => answerInRankOrder(each, question));
    return deps.graph.readEach(async (each) => answer(each, question, await readWords(each), []));
  }
  // The words are read while the question is embedded and its neighbours are read (the two reads run side
  // by side); a semantic question the engine cannot embed is served lexically, and then reads them after.
  // No transaction waits for the other's: each holds a pooled connection while it runs.
  const meaning = embedQuestion(deps, query, mode).then(async (question) => ({
    question,
    semantic: servedMode(mode, question) === 'lexical' ? [] : await readMeaning(question),
  }));
  const [{ question, semantic }, early] = await Promise.all([
    meaning,
    mode === 'semantic' ? Promise.resolve(null) : deps.graph.readEach(readWords),
  ]);
  return deps.graph.readEach(async (tx) => {
    const lexical = servedMode(mode, question) === 'semantic' ? [] : (early ?? (await readWords(tx)));
    return answer(tx, question, lexical, semantic);
  });
}

/** No channel ranked (no query). */
const NO_CHANNELS = { channels: [] as RecallChannel[], time: [] as TimeWindow[] };

/** What ranked a recall served by words and meaning alone (lexical mode, known_at, no embedding engine). */
function wordsChannels(served: SearchMode): { channels: RecallChannel[]; time: TimeWindow[] } {
  const channels: RecallChannel[] =
    served === 'lexical' ? ['words'] : served === 'semantic' ? ['meaning'] : ['words', 'meaning'];
  return { channels, time: [] };
}

/** The rows whose memory is still there: one deleted while the statement read it comes back null. */
function present<R extends { memory: { id: string } | null }>(rows: R[]): (R & { memory: NonNullable<R['memory']> })[] {
  return rows.filter((r): r is R & { memory: NonNullable<R['memory']> } => isPresent(r.memory));
}

function newestFirst(a: { memory: MemoryProps }, b: { memory: MemoryProps }): number {
  const ma = a.memory;
  const mb = b.memory;
  const ta = Date.parse(ma.created_at);
  const tb = Date.parse(mb.created_at);
  if (ta !== tb) return tb - ta;
  return ma.id < mb.id ? -1 : 1;
}

type Hit = ReturnType<typeof hitOf>;

function hitOf(row: MemoryHitRow & { memory: RankedMemory }, score: number) {
  return { id: row.memory.id, item: row, text: memoryText(row.memory), score };
}

/**
 * A row of memories/answered and search/answered: the memories read whole (null where deleted mid-read) and the
 * edges (declared, not checked).
 */
export interface AnsweredRow {
  memories: (MemoryProps | null)[];
  edges: EdgeReadRow[];
}

/** An answered row's memories by id and its edges, each still there (one deleted while it was read is left out). */
export function answeredParts(row: AnsweredRow | undefined): {
  memories: Map<string, MemoryProps>;
  edges: GraphEdgeRow[];
} {
  const memories = (row?.memories ?? []).filter((m): m is MemoryProps => isPresent(m));
  return { memories: new Map(memories.map((m) => [m.id, m])), edges: (row?.edges ?? []).filter(isWhole) };
}

/**
 * The answered memories whole, by id, except those the caller already holds (`known`), and the committed
 * edges among and around all of them: one statement (memories/answered).
 */
export async function readAnswered(
  tx: Reader,
  projectId: string,
  ids: string[],
  known: string[],
): Promise<{ memories: Map<string, MemoryProps>; edges: GraphEdgeRow[] }> {
  return answeredParts(await tx.one<AnsweredRow>('memories/answered', { ids, known, project_id: projectId }));
}

async function edgesOf(
  tx: Reader,
  projectId: string,
  memories: { memory: MemoryProps }[],
  then: Then | null,
): Promise<GraphEdgeRow[]> {
  const ids = memories.map((m) => m.memory.id);
  if (ids.length === 0) return [];
  // The memories themselves are in hand (memories/recent): only their edges are read.
  const { edges } = await readAnswered(tx, projectId, ids, ids);
  return then ? edgesThen(then, edges, ids, null, Number.MAX_SAFE_INTEGER) : edges;
}
