// Ranked recall of a project's committed, still-recallable memories (docs/recall.md): the words
// (full-text index memory_text) and the meaning (vector index memory_embedding) each rank the
// memories, fused into one order by src/search/hybrid.ts. Without a query, the most recent.
import type { GraphDeps } from '../shared/deps.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import type { Row } from '../db/graph.js';
import { luceneQuery } from '../db/tenant.js';
import { fuseRankings, hybridRankings, type Match, type SearchMode } from '../search/hybrid.js';
import { embedQuestion, nearest, servedMode, type Degraded } from '../search/meaning.js';
import type { MemoryKind } from './schemas.js';

export interface RecallOptions {
  query: string | undefined;
  limit: number;
  kinds: MemoryKind[] | undefined;
  /** hybrid (default), lexical or semantic. */
  mode?: SearchMode;
}

export interface Recalled {
  /** Rows with `memory` (its properties) and, for a query, `match` (why it is there). */
  memories: { memory: Row; match?: Match }[];
  edges: Row[];
  /** The mode served: semantic or hybrid asked while meaning is unavailable is served lexically. */
  mode: SearchMode;
  degraded: Degraded[];
}

/** How many candidates each side ranks before fusion. */
export const candidatesFor = (limit: number): number => limit * 4 + 20;

/** The text an identifier is looked for in: the memory's name and content. */
export function memoryText(memory: Row): string {
  return `${String(memory.name ?? '')}\n${String(memory.content ?? '')}`;
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
  const base = { project_id: projectId, now, kinds: options.kinds ?? null, limit: options.limit };
  if (!asked) {
    const rows = await deps.graph.read((tx) => tx.run('memories/recent', base));
    const memories = rows.map((r) => ({ memory: (r.memory ?? {}) as Row }));
    return { memories, edges: await edgesOf(deps, memories), mode, degraded: [] };
  }
  // A query with nothing to search for (only punctuation) matches nothing; it is not "no query".
  if (!lucene) return { memories: [], edges: [], mode, degraded: [] };
  const candidates = candidatesFor(options.limit);
  const readWords = async (): Promise<Hit[]> =>
    (await deps.graph.read((tx) => tx.run('memories/search', { ...base, lucene, limit: candidates, candidates }))).map(
      (r) => hitOf(r, Number(r.score)),
    );
  // The words are read while the question is embedded (the engine call is the longer of the two);
  // a semantic question the engine cannot embed is served lexically, and then reads them after.
  const [question, early] = await Promise.all([
    embedQuestion(deps, query, mode),
    mode === 'semantic' ? Promise.resolve(null) : readWords(),
  ]);
  const served = servedMode(mode, question);
  const lexical = served === 'semantic' ? [] : (early ?? (await readWords()));
  const semantic =
    served === 'lexical'
      ? []
      : (await deps.graph.read((tx) => nearest(tx, 'memories/vector', base, question, candidates))).map((r) =>
          hitOf(r, Number(r.similarity)),
        );
  const rankings = hybridRankings('memory', served, query, lexical, semantic);
  const fused = fuseRankings(rankings, query, options.limit);
  const memories = fused.map((f) => ({ memory: (f.item.memory ?? {}) as Row, match: f.match }));
  return { memories, edges: await edgesOf(deps, memories), mode: served, degraded: question.degraded };
}

type Hit = ReturnType<typeof hitOf>;

function hitOf(row: Row, score: number) {
  const memory = (row.memory ?? {}) as Row;
  return { id: String(memory.id), item: row, text: memoryText(memory), score };
}

async function edgesOf(deps: GraphDeps, memories: { memory: Row }[]): Promise<Row[]> {
  const ids = memories.map((m) => String(m.memory.id));
  return ids.length > 0 ? deps.graph.read((tx) => tx.run('memories/edges', { ids })) : [];
}
