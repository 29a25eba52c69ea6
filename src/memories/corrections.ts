// Corrections of stored memories, each one governed write (a delta of origin "correction"): edit,
// delete, supersede by another memory, and the history of the deltas that touched a memory.
// Subject and object links are replaced (old relationship deleted, new one created) so revert
// restores exactly what was there.
import type { HistoryRow } from '../deltas/views.js';
import type { GraphDeps as Deps } from '../shared/deps.js';
import type { Tx } from '../db/graph.js';
import { DeltaDraft } from '../deltas/draft.js';
import type { PropValue } from '../deltas/props.js';
import { writeGoverned, type Actor, type WriteOutcome } from '../deltas/service.js';
import { EntityResolver, type EntityRef } from '../entities/resolve.js';
import { invalid, notFound } from '../errors/catalogue.js';
import { memoryName } from './views.js';
import { createMemoryDraft, observedAtOf, type MemoryInput } from './service.js';
import { dateValue } from '../deltas/props.js';
import { EpisodeLinker } from '../episodes/linker.js';
import { entitiesByIds } from '../entities/store.js';
import { checkValidTime, factEdges, FactTypes, recordedType, stageFactEdge, TIMED_KINDS } from './facts.js';

const isoOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : String(value);

export const CORRECTION_ORIGIN = 'correction';

export interface MemoryPatch {
  content?: string;
  kind?: string;
  subject?: string | EntityRef | null;
  predicate?: string | null;
  object?: string | EntityRef | null;
  forget_after?: string | null;
  forget_reason?: string | null;
  valid_from?: string | null;
  valid_to?: string | null;
  /** Moves the memory to another episode (null: out of any). */
  episode?: string | null;
  observed_at?: string;
}

interface Link {
  type: string;
  relationship_id: string;
  entity_id: string;
}

/** A committed memory's link to its episode (memories/links). */
interface EpisodeLink {
  relationship_id: string;
  episode_id: string;
}

async function committedMemory(
  tx: Tx,
  projectId: string,
  id: string,
): Promise<{ memory: Record<string, unknown>; links: Link[]; episode: EpisodeLink | null }> {
  const row = await tx.one<{
    memory: Record<string, unknown>;
    links: Link[] | null;
    episode_link: EpisodeLink | null;
  }>('memories/links', {
    id,
    project_id: projectId,
  });
  if (!row) throw notFound('memory', id);
  return { memory: row.memory, links: row.links ?? [], episode: row.episode_link ?? null };
}

/**
 * PATCH of episode or observed_at: the memory moves to the episode of the new key (its old link deleted, its old
 * episode relinked without it) and takes its new time; the episodes' chains follow at apply (episodes/relink).
 */
async function restageEpisode(
  tx: Tx,
  draft: DeltaDraft,
  actor: Actor,
  id: string,
  current: { memory: Record<string, unknown>; episode: EpisodeLink | null },
  patch: MemoryPatch,
  set: Record<string, PropValue>,
): Promise<void> {
  let observedAt: Date | null = null;
  if (patch.observed_at !== undefined) {
    observedAt = observedAtOf(patch, '/body', Date.now());
    Object.assign(set, { observed_at: observedAt, date_observed: dateValue(observedAt.toISOString().slice(0, 10)) });
    if (current.episode) draft.touchEpisode(current.episode.episode_id);
  }
  const key = patch.episode;
  if (key === undefined || key === (current.memory.episode ?? null)) return;
  set.episode = key;
  if (current.episode) {
    draft.deleteRelationship(current.episode.relationship_id, id);
    draft.touchEpisode(current.episode.episode_id);
  }
  if (key === null) return;
  const linker = new EpisodeLinker(draft, actor.projectId);
  await linker.prepare(tx, [key]);
  const at = observedAt ?? observedOf(current.memory);
  linker.link(id, key, at, String(patch.content ?? current.memory.content ?? ''));
  linker.finish();
}

/** When a stored memory was observed: its observed_at, else (written before episodes) its created_at. */
function observedOf(memory: Record<string, unknown>): Date {
  return new Date(isoOrNull(memory.observed_at) ?? isoOrNull(memory.created_at) ?? Date.now());
}

const asRef = (value: string | EntityRef): EntityRef => (typeof value === 'string' ? { name: value } : value);

/**
 * PATCH: the given fields change; null clears an optional one. Links are rebuilt when subject, predicate or object
 * change.
 */
export async function patchMemory(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: MemoryPatch,
  apply: boolean,
): Promise<WriteOutcome> {
  return writeGoverned(
    deps.graph,
    async (tx) => {
      const current = await committedMemory(tx, actor.projectId, id);
      const { memory, links } = current;
      const draft = new DeltaDraft(CORRECTION_ORIGIN, `correct memory: ${String(memory.name ?? id)}`);
      const factTypes = new FactTypes(tx, actor.projectId);
      const set: Record<string, PropValue> = {};
      if (patch.content !== undefined) Object.assign(set, { content: patch.content, name: memoryName(patch.content) });
      if (patch.kind !== undefined) set.kind = patch.kind;
      if (patch.forget_after !== undefined) {
        if (patch.forget_after !== null && Number.isNaN(Date.parse(patch.forget_after)))
          throw invalid('/body/forget_after', 'must be a date-time');
        set.forget_after = patch.forget_after === null ? null : new Date(patch.forget_after);
      }
      if (patch.forget_reason !== undefined) set.forget_reason = patch.forget_reason;
      if (patch.predicate !== undefined) {
        set.predicate = patch.predicate;
        set.predicate_type = patch.predicate === null ? null : await factTypes.resolve(patch.predicate);
      }
      const predicate =
        patch.predicate !== undefined ? patch.predicate : ((memory.predicate as string | null | undefined) ?? null);
      const ends: Record<'subject' | 'object', string[]> = {
        subject: links.filter((l) => l.type === 'HAS_SUBJECT').map((l) => l.entity_id),
        object: links.filter((l) => l.type === 'HAS_OBJECT').map((l) => l.entity_id),
      };
      const relink = patch.subject !== undefined || patch.object !== undefined || patch.predicate !== undefined;
      if (relink) {
        const resolver = new EntityResolver(tx, actor.projectId, draft);
        for (const [role, type] of [
          ['subject', 'HAS_SUBJECT'],
          ['object', 'HAS_OBJECT'],
        ] as const) {
          const current = links.filter((l) => l.type === type);
          const given = patch[role];
          let targets = current.map((l) => l.entity_id);
          if (given !== undefined) {
            targets = given === null ? [] : await resolver.resolve([{ ref: asRef(given), field: `/body/${role}` }]);
            set[`${role}_name`] = given === null ? null : typeof given === 'string' ? given : (given.name ?? null);
            if (given !== null && typeof given !== 'string' && given.id && !given.name) {
              const [named] = await entitiesByIds(tx, actor.projectId, [given.id]);
              set[`${role}_name`] = named?.name ?? null;
            }
          }
          ends[role] = targets;
          for (const link of current) draft.deleteRelationship(link.relationship_id, id);
          for (const target of targets) draft.createRelationship(id, type, target, predicate ? { predicate } : {});
        }
      }
      // Valid time: the given bounds replace the stored ones (null clears); the edge follows.
      const retimed = patch.valid_from !== undefined || patch.valid_to !== undefined;
      const valid = checkValidTime(
        {
          valid_from: patch.valid_from !== undefined ? patch.valid_from : isoOrNull(memory.valid_from),
          valid_to: patch.valid_to !== undefined ? patch.valid_to : isoOrNull(memory.valid_to),
        },
        '/body',
      );
      const kind = patch.kind ?? String(memory.kind ?? 'observation');
      if ((valid.from || valid.to) && !TIMED_KINDS.has(kind))
        throw invalid(
          `/body/${patch.kind !== undefined ? 'kind' : valid.from ? 'valid_from' : 'valid_to'}`,
          `only a fact, decision or preference has valid time (this memory would be a ${kind}); ` +
            'clear valid_from and valid_to',
        );
      if (patch.valid_from !== undefined) set.valid_from = valid.from;
      if (patch.valid_to !== undefined) set.valid_to = valid.to;
      const type = patch.predicate !== undefined ? (set.predicate_type as string | null) : recordedType(memory);
      if (relink || retimed) await restageFactEdge(tx, draft, factTypes, id, { type, ends, ...valid });
      await restageEpisode(tx, draft, actor, id, current, patch, set);
      draft.updateNode(id, set);
      return draft;
    },
    actor,
    apply,
  );
}

/**
 * Replaces the memory's fact edge (docs/facts.md): the committed one is deleted and, when subject, predicate and object
 * remain, a new one is staged with the memory's validity (revert restores exactly what was there).
 */
async function restageFactEdge(
  tx: Tx,
  draft: DeltaDraft,
  types: FactTypes,
  id: string,
  fact: { type: string | null; ends: Record<'subject' | 'object', string[]>; from: Date | null; to: Date | null },
): Promise<void> {
  for (const edge of await factEdges(tx, types.projectId, id))
    draft.deleteRelationship(edge.relationship_id, edge.from_id);
  const [subjectId] = fact.ends.subject;
  const [objectId] = fact.ends.object;
  if (!subjectId || !objectId) return;
  await stageFactEdge(
    draft,
    types,
    { memoryId: id, subjectId, objectId, type: fact.type, from: fact.from, to: fact.to },
    '/body/predicate',
  );
}

/**
 * Ends a timed memory's validity at `at` (its valid_to, and its fact edge's): what supersede and close do. Nothing
 * when the memory has no valid time (not a fact, decision or preference), already ends by then, or starts after it.
 */
async function closeAt(
  tx: Tx,
  draft: DeltaDraft,
  actor: Actor,
  id: string,
  memory: Record<string, unknown>,
  links: Link[],
  at: Date,
): Promise<boolean> {
  if (!TIMED_KINDS.has(String(memory.kind))) return false;
  const from = isoOrNull(memory.valid_from);
  const to = isoOrNull(memory.valid_to);
  if (to !== null && new Date(to).getTime() <= at.getTime()) return false;
  if (from !== null && new Date(from).getTime() > at.getTime()) return false;
  draft.updateNode(id, { valid_to: at });
  const ends = {
    subject: links.filter((l) => l.type === 'HAS_SUBJECT').map((l) => l.entity_id),
    object: links.filter((l) => l.type === 'HAS_OBJECT').map((l) => l.entity_id),
  };
  const fact = { type: recordedType(memory), ends, from: from ? new Date(from) : null, to: at };
  await restageFactEdge(tx, draft, new FactTypes(tx, actor.projectId), id, fact);
  return true;
}

export interface CloseInput {
  valid_to?: string;
  reason?: string;
}

/** The close correction: the fact stops holding at valid_to (default now); 400 when it cannot be closed then. */
export async function closeMemory(
  deps: Deps,
  actor: Actor,
  id: string,
  input: CloseInput,
  apply: boolean,
): Promise<WriteOutcome> {
  return writeGoverned(
    deps.graph,
    async (tx) => {
      const { memory, links } = await committedMemory(tx, actor.projectId, id);
      const at = input.valid_to === undefined ? new Date() : new Date(input.valid_to);
      if (Number.isNaN(at.getTime())) throw invalid('/body/valid_to', 'must be a date-time');
      const summary = `close memory: ${String(memory.name ?? id)}${input.reason ? ` (${input.reason})` : ''}`;
      const draft = new DeltaDraft(CORRECTION_ORIGIN, summary);
      if (!TIMED_KINDS.has(String(memory.kind)))
        throw invalid(
          '/body/valid_to',
          `only a fact, decision or preference can be closed (this memory is a ${String(memory.kind)})`,
        );
      const from = isoOrNull(memory.valid_from);
      if (from !== null && new Date(from).getTime() > at.getTime())
        throw invalid('/body/valid_to', `must not be before the memory's valid_from (${from})`);
      const to = isoOrNull(memory.valid_to);
      if (to !== null && new Date(to).getTime() <= at.getTime())
        throw invalid('/body/valid_to', `the memory already stops holding at ${to}`);
      await closeAt(tx, draft, actor, id, memory, links, at);
      return draft;
    },
    actor,
    apply,
  );
}

export async function deleteMemory(deps: Deps, actor: Actor, id: string, apply: boolean): Promise<WriteOutcome> {
  return writeGoverned(
    deps.graph,
    async (tx) => {
      const { memory, episode } = await committedMemory(tx, actor.projectId, id);
      const draft = new DeltaDraft(CORRECTION_ORIGIN, `delete memory: ${String(memory.name ?? id)}`);
      for (const edge of await factEdges(tx, actor.projectId, id))
        draft.deleteRelationship(edge.relationship_id, edge.from_id);
      draft.deleteNode(id);
      // Its episode is relinked around it when the delete is applied (and with it again if that is reverted).
      if (episode) draft.touchEpisode(episode.episode_id);
      return draft;
    },
    actor,
    apply,
  );
}

export interface SupersedeInput {
  by: string | MemoryInput;
  reason: string;
}

/** (new)-[:SUPERSEDES {reason}]->(old): by names a committed memory, or is a new memory created in the same delta. */
export async function supersedeMemory(
  deps: Deps,
  actor: Actor,
  id: string,
  input: SupersedeInput,
  apply: boolean,
  shapeId: string,
): Promise<WriteOutcome & { byId: string }> {
  let byId = '';
  const outcome = await writeGoverned(
    deps.graph,
    async (tx) => {
      const { memory, links } = await committedMemory(tx, actor.projectId, id);
      const draft = new DeltaDraft(CORRECTION_ORIGIN, `supersede memory: ${String(memory.name ?? id)}`);
      let byFrom: string | null;
      if (typeof input.by === 'string') {
        if (input.by === id) throw invalid('/body/by', 'a memory cannot supersede itself');
        const by = await tx.one('memories/links', { id: input.by, project_id: actor.projectId });
        if (!by) throw notFound('memory', input.by);
        byId = input.by;
        byFrom = isoOrNull((by.memory as Record<string, unknown>).valid_from);
      } else {
        byId = (await createMemoryDraft(tx, draft, actor, [{ input: input.by, field: '/body/by' }], shapeId))[0]!.id;
        byFrom = input.by.valid_from ?? null;
      }
      await closeAt(tx, draft, actor, id, memory, links, byFrom ? new Date(byFrom) : new Date());
      draft.createRelationship(byId, 'SUPERSEDES', id, { reason: input.reason });
      return draft;
    },
    actor,
    apply,
  );
  return { ...outcome, byId };
}

/**
 * The deltas that touched the memory (created, updated, linked, deleted it), oldest first; 404 when none in this
 * project.
 */
export async function memoryHistory(deps: Deps, actor: Actor, id: string): Promise<HistoryRow[]> {
  const rows = await deps.graph.read((tx) =>
    tx.run<HistoryRow>('memories/history', { id, project_id: actor.projectId }),
  );
  if (rows.length === 0) throw notFound('memory', id);
  return rows;
}
