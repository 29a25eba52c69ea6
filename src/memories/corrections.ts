// Corrections of stored memories, each one governed write (a delta of origin "correction"): edit,
// delete, supersede by another memory, and the history of the deltas that touched a memory.
// Subject and object links are replaced (old relationship deleted, new one created) so revert
// restores exactly what was there.
import type { GraphDeps as Deps } from '../shared/deps.js';
import type { Tx } from '../db/graph.js';
import { DeltaDraft } from '../deltas/draft.js';
import type { PropValue } from '../deltas/props.js';
import { writeGoverned, type Actor, type WriteOutcome } from '../deltas/service.js';
import { EntityResolver, type EntityRef } from '../entities/resolve.js';
import { invalid, notFound } from '../errors/catalogue.js';
import type { Row } from '../db/graph.js';
import { memoryName } from './views.js';
import { createMemoryDraft, type MemoryInput } from './service.js';
import { entitiesByIds } from '../entities/store.js';

export const CORRECTION_ORIGIN = 'correction';

export interface MemoryPatch {
  content?: string;
  kind?: string;
  subject?: string | EntityRef | null;
  predicate?: string | null;
  object?: string | EntityRef | null;
  forget_after?: string | null;
  forget_reason?: string | null;
}

interface Link {
  type: string;
  relationship_id: string;
  entity_id: string;
}

async function committedMemory(
  tx: Tx,
  projectId: string,
  id: string,
): Promise<{ memory: Record<string, unknown>; links: Link[] }> {
  const row = await tx.one('memories/links', { id, project_id: projectId });
  if (!row) throw notFound('memory', id);
  return { memory: row.memory as Record<string, unknown>, links: (row.links ?? []) as unknown as Link[] };
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
      const { memory, links } = await committedMemory(tx, actor.projectId, id);
      const draft = new DeltaDraft(CORRECTION_ORIGIN, `correct memory: ${String(memory.name ?? id)}`);
      const set: Record<string, PropValue> = {};
      if (patch.content !== undefined) Object.assign(set, { content: patch.content, name: memoryName(patch.content) });
      if (patch.kind !== undefined) set.kind = patch.kind;
      if (patch.forget_after !== undefined) {
        if (patch.forget_after !== null && Number.isNaN(Date.parse(patch.forget_after)))
          throw invalid('/body/forget_after', 'must be a date-time');
        set.forget_after = patch.forget_after === null ? null : new Date(patch.forget_after);
      }
      if (patch.forget_reason !== undefined) set.forget_reason = patch.forget_reason;
      if (patch.predicate !== undefined) set.predicate = patch.predicate;
      const relink = patch.subject !== undefined || patch.object !== undefined || patch.predicate !== undefined;
      if (relink) {
        const predicate =
          patch.predicate !== undefined ? patch.predicate : ((memory.predicate as string | null | undefined) ?? null);
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
          for (const link of current) draft.deleteRelationship(link.relationship_id, id);
          for (const target of targets) draft.createRelationship(id, type, target, predicate ? { predicate } : {});
        }
      }
      draft.updateNode(id, set);
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
      const { memory } = await committedMemory(tx, actor.projectId, id);
      const draft = new DeltaDraft(CORRECTION_ORIGIN, `delete memory: ${String(memory.name ?? id)}`);
      draft.deleteNode(id);
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
      const { memory } = await committedMemory(tx, actor.projectId, id);
      const draft = new DeltaDraft(CORRECTION_ORIGIN, `supersede memory: ${String(memory.name ?? id)}`);
      if (typeof input.by === 'string') {
        if (input.by === id) throw invalid('/body/by', 'a memory cannot supersede itself');
        const by = await tx.one('memories/links', { id: input.by, project_id: actor.projectId });
        if (!by) throw notFound('memory', input.by);
        byId = input.by;
      } else {
        byId = (await createMemoryDraft(tx, draft, actor, [{ input: input.by, field: '/body/by' }], shapeId))[0]!.id;
      }
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
export async function memoryHistory(deps: Deps, actor: Actor, id: string): Promise<Row[]> {
  const rows = await deps.graph.read((tx) => tx.run('memories/history', { id, project_id: actor.projectId }));
  if (rows.length === 0) throw notFound('memory', id);
  return rows;
}
