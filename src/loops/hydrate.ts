// One hydrate iteration: gather committed memories, documents and entities matching the goal, and
// the subject's neighbourhood, widening with each iteration; stage a :Context node for the goal
// and a RELEVANT_TO link (with its reason) from every item gathered, with deterministic ids.
// Quality = 0.7 × coverage (share of the goal's terms found in what was gathered) + 0.3 ×
// diversity (share of the three planes memory, document, entity that contributed).
import type { Row } from '../db/graph.js';
import type { GraphDeps } from '../shared/deps.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import { embedQuestion, nearest } from '../search/meaning.js';
import { luceneQuery, tenantToken } from '../db/tenant.js';
import { DeltaDraft } from '../deltas/draft.js';
import { stageChanges } from '../deltas/service.js';
import { normalizeName } from '../entities/identity.js';
import { round4 } from '../extractor/quality.js';
import { deterministicId } from './ids.js';
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

export async function gatherContext(
  deps: GraphDeps & EmbedderDeps,
  input: LoopInput,
  iteration: number,
): Promise<Checkpoint> {
  const graph = deps.graph;
  const limit = 10 * iteration;
  const now = new Date().toISOString();
  const lucene = luceneQuery(input.goal, input.projectId);
  // The goal by meaning too (docs/recall.md); an engine that is down leaves the words alone.
  const question = lucene && !input.sliceId ? await embedQuestion(deps, input.goal, 'hybrid') : null;
  const items = input.sliceId
    ? await gatherThroughSlice(deps, input, input.sliceId, iteration)
    : await graph.read(async (tx) => {
        const base = { project_id: input.projectId, limit, now };
        const found: Item[] = [];
        if (lucene) {
          for (const name of ['loops/hydrate_memories', 'loops/hydrate_documents', 'loops/hydrate_entities']) {
            for (const row of await tx.run(name, { ...base, lucene }))
              found.push({
                id: String(row.id),
                plane: String(row.plane),
                score: Number(row.score),
                text: String(row.text ?? ''),
              });
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
          };
          const near: [string, string, (r: Row) => string][] = [
            ['memories/vector', 'memory', (r) => String((r.memory as Row).content ?? '')],
            ['search/chunks_vector', 'document', (r) => String((r.chunk as Row).text ?? '')],
            ['search/entities_vector', 'entity', (r) => String((r.entity as Row).name ?? '')],
          ];
          for (const [statement, plane, text] of near)
            for (const row of await nearest(tx, statement, base2, question, limit))
              found.push({ id: String(row.id), plane, score: Number(row.similarity), text: text(row) });
        }
        if (input.subject) {
          const rows = await tx.run('loops/hydrate_subject', {
            ...base,
            subject: normalizeName(input.subject),
            depth: Math.min(iteration, 2),
          });
          for (const row of rows)
            found.push({
              id: String(row.id),
              plane: String(row.plane),
              score: Number(row.score),
              text: String(row.text ?? ''),
              hops: Number(row.hops),
            });
        }
        return found;
      });
  const byId = new Map<string, Item>();
  for (const item of items) if (!byId.has(item.id) || byId.get(item.id)!.score < item.score) byId.set(item.id, item);

  const terms = goalTerms(input.goal);
  const gathered = [...byId.values()].map((i) => i.text.toLowerCase()).join(' ');
  const covered = terms.filter((t) => gathered.includes(t)).length;
  const coverage = terms.length ? covered / terms.length : 0;
  const planes = new Set([...byId.values()].map((i) => i.plane).filter((p) => p !== 'neighbourhood'));
  const diversity = planes.size / 3;
  const quality = round4(0.7 * coverage + 0.3 * diversity);

  const contextId = deterministicId(input.loopId, 'context');
  return graph.write(
    async (tx) => {
      const ids = [contextId, ...[...byId.keys()].map((id) => deterministicId(input.loopId, 'relevant', id))];
      const existingRow = await tx.one('loops/existing_ids', { delta_id: input.deltaId, ids });
      const existing = new Set((existingRow?.ids as string[] | undefined) ?? []);
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
      if (draft.size > 0) await stageChanges(tx, draft, input.deltaId, input.projectId, now);
      const totals = await tx.one('loops/delta_totals', { delta_id: input.deltaId });
      // Hydrate stages no entities (its :Context node is not one) and resolves nothing: it links
      // committed items it gathered. Progress is a new link.
      return {
        iteration,
        quality,
        quality_components: { coverage: round4(coverage), diversity: round4(diversity) },
        entities_staged: Number(totals?.entities ?? 0),
        relationships_staged: Number(totals?.relationships ?? 0),
        entities_new: 0,
        relationships_new: linksNew,
        resolved_to_existing: 0,
        rejected: 0,
        characters: gathered.length,
        changed:
          linksNew === 0
            ? `nothing new (${byId.size} items gathered, all linked already)`
            : `linked ${linksNew} more of ${byId.size} gathered items to the context`,
      };
    },
    { purpose: `loop:${input.loopId}:iteration:${iteration}` },
  );
}
