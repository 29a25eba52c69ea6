// Memories: create (single or batch, one delta, atomic), read, ranked recall and synthesis.
import type { MemoryProps } from './views.js';
import type { Graph } from '../db/graph.js';
import type { Tx } from '../db/graph.js';
import { DeltaDraft } from '../deltas/draft.js';
import { dateValue } from '../deltas/props.js';
import { writeGoverned, type Actor, type WriteOutcome } from '../deltas/service.js';
import { EntityResolver, type EntityRef } from '../entities/resolve.js';
import { invalid, notFound } from '../errors/catalogue.js';
import { tenantToken } from '../db/tenant.js';
import { memoryName } from './views.js';
import type { MemoryKind } from './schemas.js';
import { checkValidTime, FactTypes, stageFactEdge, TIMED_KINDS } from './facts.js';
import { requireVisibleShape } from '../shapes/store.js';
import { MEMORY_SHAPE_ID } from '../shapes/types.js';
import { isPresent } from '../graph/views.js';
import { EpisodeLinker } from '../episodes/linker.js';

/** What this service uses: the graph only, not the HTTP dependency bag (src/http/deps.ts). */
type Deps = { graph: Graph };

export { MEMORY_SHAPE_ID };
export const MEMORY_SCHEMA_TAG = 'gks.memory/v1';

export interface MemoryInput {
  content: string;
  kind?: MemoryKind;
  scope?: 'agent' | 'commons' | 'project';
  subject?: string | EntityRef;
  predicate?: string;
  object?: string | EntityRef;
  source_context?: string;
  forget_after?: string;
  forget_reason?: string;
  valid_from?: string;
  valid_to?: string;
  /** The conversation, session, thread, meeting, call or ticket it came from (docs/episodes.md). */
  episode?: string;
  /** When it was said or happened; default now (a batch's items without it: now, a millisecond apart, in order). */
  observed_at?: string;
}

export interface CreatedMemory {
  id: string;
  delta_entity_id: string;
  content: string;
  name: string;
}

const asRef = (value: string | EntityRef): EntityRef => (typeof value === 'string' ? { name: value } : value);
const refName = (value: string | EntityRef | undefined): string | null =>
  value === undefined ? null : typeof value === 'string' ? value : (value.name ?? null);

async function checkShape(tx: Tx, shapeId: string, projectId: string): Promise<void> {
  await requireVisibleShape(tx, projectId, shapeId, '/body/shape_id');
}

/** What reads the graph, asked of a draft made without a transaction (memoriesReadNothing): a bug of its caller. */
function readable<T>(reader: T | null): T {
  if (reader === null) throw new Error('createMemoryDraft: these memories read the graph; draft them in the write');
  return reader;
}

/** Puts the memories into the draft (resolving subjects and objects against committed entities). */
export async function createMemoryDraft(
  tx: Tx | null,
  draft: DeltaDraft,
  actor: Actor,
  items: { input: MemoryInput; field: string }[],
  shapeId: string,
): Promise<CreatedMemory[]> {
  if (shapeId !== MEMORY_SHAPE_ID) await checkShape(readable(tx), shapeId, actor.projectId);
  const now = Date.now();
  const resolver = tx && new EntityResolver(tx, actor.projectId, draft);
  const created: CreatedMemory[] = [];
  const factTypes = tx && new FactTypes(tx, actor.projectId);
  const episodes = new EpisodeLinker(draft, actor.projectId);
  const keys = items.flatMap(({ input }) => (input.episode === undefined ? [] : [input.episode]));
  if (keys.length > 0) await episodes.prepare(readable(tx), keys);
  for (const [index, { input, field }] of items.entries()) {
    if (input.forget_after && Number.isNaN(Date.parse(input.forget_after)))
      throw invalid(`${field}/forget_after`, 'must be a date-time');
    const observedAt = observedAtOf(input, field, now + index);
    // A memory that states a relation (a predicate) is a fact unless it says otherwise (docs/memories.md).
    const kind = input.kind ?? (input.predicate ? 'fact' : 'observation');
    const valid = checkValidTime(input, field);
    if ((valid.from || valid.to) && !TIMED_KINDS.has(kind))
      throw invalid(
        `${field}/${valid.from ? 'valid_from' : 'valid_to'}`,
        `only a fact, decision or preference has valid time (this memory is a ${kind})`,
      );
    const name = memoryName(input.content);
    const predicateType = input.predicate ? await readable(factTypes).resolve(input.predicate) : null;
    const node = draft.createNodeRecord(['Memory'], {
      name,
      kind,
      content: input.content,
      scope: input.scope ?? 'project',
      memory_schema: MEMORY_SCHEMA_TAG,
      shape_id: shapeId,
      observed_at: observedAt,
      date_observed: dateValue(observedAt.toISOString().slice(0, 10)),
      episode: input.episode ?? null,
      subject_name: refName(input.subject),
      predicate: input.predicate ?? null,
      predicate_type: predicateType,
      object_name: refName(input.object),
      source_context: input.source_context ?? null,
      forget_after: input.forget_after ? new Date(input.forget_after) : null,
      forget_reason: input.forget_reason ?? null,
      valid_from: valid.from,
      valid_to: valid.to,
      tenant: tenantToken(actor.projectId),
    });
    const ends: { subject?: string; object?: string } = {};
    for (const [role, type] of [
      ['subject', 'HAS_SUBJECT'],
      ['object', 'HAS_OBJECT'],
    ] as const) {
      const value = input[role];
      if (value === undefined) continue;
      const [entityId] = await readable(resolver).resolve([{ ref: asRef(value), field: `${field}/${role}` }]);
      ends[role] = entityId!;
      draft.createRelationship(node.id, type, entityId!, input.predicate ? { predicate: input.predicate } : {});
    }
    if (ends.subject && ends.object && input.predicate)
      await stageFactEdge(
        draft,
        readable(factTypes),
        {
          memoryId: node.id,
          subjectId: ends.subject,
          objectId: ends.object,
          type: predicateType,
          from: valid.from,
          to: valid.to,
        },
        `${field}/predicate`,
      );
    if (input.episode !== undefined) episodes.link(node.id, input.episode, observedAt, input.content);
    created.push({ id: node.id, delta_entity_id: node.changeId, content: input.content, name });
  }
  episodes.finish();
  return created;
}

/**
 * When a memory was said or happened: its observed_at (400 naming the field when it is no date-time), else
 * `fallback` (now; a batch's n-th item without one: now + n ms, so its items keep the order they were given in).
 */
export function observedAtOf(input: Pick<MemoryInput, 'observed_at'>, field: string, fallback: number): Date {
  if (input.observed_at === undefined) return new Date(fallback);
  const at = new Date(input.observed_at);
  if (Number.isNaN(at.getTime())) throw invalid(`${field}/observed_at`, 'must be a date-time');
  return at;
}

/** Whether drafting these memories reads nothing: the memory shape, and no subject, object, predicate or episode. */
export function memoriesReadNothing(items: { input: MemoryInput }[], shapeId: string): boolean {
  return (
    shapeId === MEMORY_SHAPE_ID &&
    items.every(
      ({ input }) =>
        input.subject === undefined &&
        input.object === undefined &&
        input.predicate === undefined &&
        input.episode === undefined,
    )
  );
}

export async function createMemories(
  deps: Deps,
  actor: Actor,
  items: { input: MemoryInput; field: string }[],
  options: { apply: boolean; shapeId: string },
): Promise<WriteOutcome & { memories: CreatedMemory[] }> {
  let created: CreatedMemory[] = [];
  const summary = items.length === 1 ? `memory: ${memoryName(items[0]!.input.content)}` : `${items.length} memories`;
  const build = async (tx: Tx | null) => {
    const draft = new DeltaDraft('memory', summary);
    created = await createMemoryDraft(tx, draft, actor, items, options.shapeId);
    return draft;
  };
  // Memories that read nothing (no entity, predicate or shape of their own) are drafted before the write, which
  // may then be one statement (writeGoverned, writtenAlone); others are drafted in the write's transaction.
  const source = memoriesReadNothing(items, options.shapeId) ? await build(null) : build;
  const outcome = await writeGoverned(deps.graph, source, actor, options.apply);
  return { ...outcome, memories: created };
}

export async function getMemory(deps: Deps, projectId: string, id: string): Promise<{ memory: MemoryProps }> {
  // One statement: an auto-commit read, one round trip (Graph.readOne).
  const row = await deps.graph.readOne<{ memory: MemoryProps }>('memories/get', { id, project_id: projectId });
  // Deleted while it was read: the row's properties are empty (isPresent).
  if (!row || !isPresent(row.memory)) throw notFound('memory', id);
  return row;
}
