// One hydrate iteration: gather committed memories, documents and entities matching the goal, and
// the subject's neighbourhood, widening with each iteration; stage a :Context node for the goal
// and a RELEVANT_TO link (with its reason) from every item gathered, with deterministic ids.
// Quality = 0.7 × coverage (share of the goal's terms found in what was gathered) + 0.3 ×
// diversity (share of the three planes memory, document, entity that contributed).
import type { Row } from '../db/graph.js';
import type { GraphDeps } from '../shared/deps.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import { embedAsked, type AskedQuestion } from '../memories/speakers.js';
import { nearest, type Question } from '../search/meaning.js';
import { candidatesFor, NO_LINKS } from '../memories/recall.js';
import { graphRecall, RECALL_CHANNELS } from '../memories/graphRecall.js';
import { luceneQuery, tenantToken } from '../db/tenant.js';
import { DeltaDraft } from '../deltas/draft.js';
import { stageChanges } from '../deltas/service.js';
import { normalizeName } from '../entities/identity.js';
import { isPresent } from '../graph/views.js';
import { round4 } from '../extractor/quality.js';
import { deterministicId } from './ids.js';
import { deltaTotals, stagedIds } from './store.js';
import { compileSlice, savedSlice } from '../context/service.js';
import { MAX_TOKENS } from '../slices/definition.js';
import type { Checkpoint, LoopInput } from './types.js';

const STOP = new Set([
  'the',
  'and',
  'for',
  'with',
  'that',
  'this',
  'from',
  'into',
  'about',
  'what',
  'which',
  'are',
  'was',
  'our',
  'their',
  'how',
  'why',
  'who',
]);

export function goalTerms(goal: string): string[] {
  return [
    ...new Set(
      goal
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((t) => t.length >= 3 && !STOP.has(t)),
    ),
  ];
}

interface Item {
  id: string;
  plane: string;
  score: number;
  text: string;
  /** Distance from the subject, for neighbourhood items. */
  hops?: number;
  /** Why a slice compile chose it. */
  reason?: string;
}

/** What loops/hydrate_memories, hydrate_documents, hydrate_entities and hydrate_subject (with hops) return. */
interface GatheredRow {
  /** Null for a node deleted while the statement read it (isPresent). */
  id: string | null;
  plane: string;
  score: number;
  text: string | null;
  hops: number;
}

/**
 * What a hit of memories/vector, search/chunks_vector and search/entities_vector carries beside its id
 * and similarity (NearHit): the node as it is, under one of these keys (declared, not checked).
 */
interface NearNodeRow {
  memory: Row | null;
  chunk: Row | null;
  entity: Row | null;
}

/** Items gathered through the loop's slice: its pack for the goal, the budget growing with the iteration. */
async function gatherThroughSlice(
  deps: GraphDeps & EmbedderDeps,
  input: LoopInput,
  sliceId: string,
  iteration: number,
): Promise<Item[]> {
  const resolved = await savedSlice(deps.graph, input.projectId, sliceId);
  const maxTokens = Math.min(MAX_TOKENS, resolved.def.budget.max_tokens * iteration);
  const { pack } = await compileSlice(deps, input.projectId, resolved, { query: input.goal, max_tokens: maxTokens });
  const via = `slice ${resolved.slice!.name} v${resolved.slice!.version}`;
  return pack.sections.flatMap((s) =>
    s.items.map((i) => ({ id: i.id, plane: s.plane, score: i.score, text: i.text, reason: `${i.reason} (${via})` })),
  );
}

/** Items matching the goal by words and by meaning, and the subject's neighbourhood (one read transaction). */
async function gatherByGoal(
  deps: GraphDeps & EmbedderDeps,
  input: LoopInput,
  iteration: number,
  now: string,
): Promise<Item[]> {
  const limit = 10 * iteration;
  const lucene = luceneQuery(input.goal, input.projectId);
  // The goal by meaning too (docs/recall.md); an engine that is down leaves the words alone.
  // Meaning reads the goal without the names of those who speak in the project (src/memories/speakers.ts).
  const embedded = lucene ? await embedAsked(deps, input.projectId, input.goal, 'hybrid') : null;
  const question = embedded?.question ?? null;
  // With meaning, the memories are memory recall's (every channel, the floor under meaning), as search ranks them.
  const recalled = embedded && question?.vector ? await recallGoal(deps, input, embedded, limit, now) : null;
  return deps.graph.read(async (tx) => {
    const base = { project_id: input.projectId, limit, now };
    const found: Item[] = [...(recalled ?? [])];
    if (lucene) {
      const planes = ['loops/hydrate_documents', 'loops/hydrate_entities'];
      for (const name of recalled ? planes : ['loops/hydrate_memories', ...planes]) {
        for (const row of await tx.run<GatheredRow>(name, { ...base, lucene }))
          if (isPresent(row)) found.push({ id: row.id, plane: row.plane, score: row.score, text: row.text ?? '' });
      }
    }
    if (question?.vector) {
      const base2 = {
        project_id: input.projectId,
        now,
        valid_at: now,
        kinds: null,
        document_ids: null,
        tags: null,
        types: null,
        episode: null,
        ...NO_LINKS,
      };
      // Each statement's hits carry its node under its own key (NearNodeRow): declared, not checked. A node
      // deleted while it was read comes back null (isPresent) and is left out.
      const near: [string, string, keyof NearNodeRow, string][] = [
        ...(recalled
          ? []
          : [['memories/vector', 'memory', 'memory', 'content'] as [string, string, keyof NearNodeRow, string]]),
        ['search/chunks_vector', 'document', 'chunk', 'text'],
        ['search/entities_vector', 'entity', 'entity', 'name'],
      ];
      for (const [statement, plane, key, field] of near)
        for (const row of await nearest<Partial<NearNodeRow>>(tx, statement, base2, question, limit)) {
          const node = row[key];
          if (isPresent(node))
            found.push({ id: row.id, plane, score: row.similarity, text: String(node[field] ?? '') });
        }
    }
    if (input.subject) {
      const rows = await tx.run<GatheredRow>('loops/hydrate_subject', {
        ...base,
        subject: normalizeName(input.subject),
        depth: Math.min(iteration, 2),
      });
      for (const row of rows)
        if (isPresent(row))
          found.push({ id: row.id, plane: row.plane, score: row.score, text: row.text ?? '', hops: row.hops });
    }
    return found;
  });
}

/** The goal's memories as memory recall ranks them: each scored by its similarity, else by recall's fused score. */
async function recallGoal(
  deps: GraphDeps & EmbedderDeps,
  input: LoopInput,
  { question, asked }: { question: Question; asked: AskedQuestion },
  limit: number,
  now: string,
): Promise<Item[]> {
  const { fused } = await graphRecall(deps, {
    projectId: input.projectId,
    query: input.goal,
    limit,
    candidates: candidatesFor(limit),
    base: { project_id: input.projectId, now, valid_at: now, kinds: null, episode: null },
    channels: new Set(RECALL_CHANNELS),
    semanticOnly: false,
    question,
    asked,
  });
  return fused.map((r) => ({
    id: r.id,
    plane: 'memory',
    score: r.match.similarity ?? r.match.score,
    text: r.item.memory?.content ?? '',
  }));
}

/** Coverage of the goal's terms and diversity of the planes in what was gathered. Pure. */
function hydrateQuality(goal: string, byId: Map<string, Item>) {
  const terms = goalTerms(goal);
  const gathered = [...byId.values()].map((i) => i.text.toLowerCase()).join(' ');
  const covered = terms.filter((t) => gathered.includes(t)).length;
  const coverage = terms.length ? covered / terms.length : 0;
  const planes = new Set([...byId.values()].map((i) => i.plane).filter((p) => p !== 'neighbourhood'));
  const diversity = planes.size / 3;
  return { terms, characters: gathered.length, coverage, diversity, quality: round4(0.7 * coverage + 0.3 * diversity) };
}

/** The :Context node (once) and a RELEVANT_TO link from each item not linked by an earlier attempt. Pure. */
function draftHydrate(
  input: LoopInput,
  iteration: number,
  byId: Map<string, Item>,
  terms: string[],
  contextId: string,
  existing: Set<string>,
): { draft: DeltaDraft; linksNew: number } {
  const draft = new DeltaDraft('loop', `hydrate iteration ${iteration}`);
  if (!existing.has(contextId)) {
    draft.createNode(
      ['Context'],
      {
        name: input.goal.slice(0, 80),
        goal: input.goal,
        subject: input.subject,
        loop_id: input.loopId,
        tenant: tenantToken(input.projectId),
      },
      { id: contextId },
    );
  }
  let linksNew = 0;
  for (const item of byId.values()) {
    const relId = deterministicId(input.loopId, 'relevant', item.id);
    if (existing.has(relId)) continue;
    const matched = terms.filter((t) => item.text.toLowerCase().includes(t));
    const reason =
      item.reason ??
      (item.plane === 'neighbourhood'
        ? `within ${item.hops ?? 0} hops of the subject ${input.subject ?? ''}`.trim()
        : `${item.plane} matching the goal${matched.length ? ` (${matched.join(', ')})` : ''}`);
    draft.createRelationship(
      item.id,
      'RELEVANT_TO',
      contextId,
      { reason, score: round4(item.score), plane: item.plane, loop_id: input.loopId, loop_iteration: iteration },
      { id: relId },
    );
    linksNew += 1;
  }
  return { draft, linksNew };
}

export async function gatherContext(
  deps: GraphDeps & EmbedderDeps,
  input: LoopInput,
  iteration: number,
): Promise<Checkpoint> {
  const now = new Date().toISOString();
  const items = input.sliceId
    ? await gatherThroughSlice(deps, input, input.sliceId, iteration)
    : await gatherByGoal(deps, input, iteration, now);
  const byId = new Map<string, Item>();
  for (const item of items) if (!byId.has(item.id) || byId.get(item.id)!.score < item.score) byId.set(item.id, item);
  const { terms, characters, coverage, diversity, quality } = hydrateQuality(input.goal, byId);

  const contextId = deterministicId(input.loopId, 'context');
  return deps.graph.write(
    async (tx) => {
      const ids = [contextId, ...[...byId.keys()].map((id) => deterministicId(input.loopId, 'relevant', id))];
      const existing = await stagedIds(tx, input.deltaId, ids);
      const { draft, linksNew } = draftHydrate(input, iteration, byId, terms, contextId, existing);
      if (draft.size > 0) await stageChanges(tx, draft, input.deltaId, input.projectId, now);
      const totals = await deltaTotals(tx, input.deltaId);
      // Hydrate stages no entities (its :Context node is not one) and resolves nothing: it links
      // committed items it gathered. Progress is a new link.
      return {
        iteration,
        quality,
        quality_components: { coverage: round4(coverage), diversity: round4(diversity) },
        entities_staged: totals.entities,
        relationships_staged: totals.relationships,
        entities_new: 0,
        relationships_new: linksNew,
        resolved_to_existing: 0,
        rejected: 0,
        characters,
        changed:
          linksNew === 0
            ? `nothing new (${byId.size} items gathered, all linked already)`
            : `linked ${linksNew} more of ${byId.size} gathered items to the context`,
      };
    },
    { purpose: `loop:${input.loopId}:iteration:${iteration}` },
  );
}
