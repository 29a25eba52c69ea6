// Corrections of domain entities (the Graph area stays read-only): edit name, type and properties,
// delete (refused while other nodes depend on it unless detached), and merge duplicates into one.
// Each is a governed write of origin "correction"; only committed :Entity nodes are touched, never
// the engine's own nodes (memories, documents, chunks, shapes, deltas).
import type { HistoryRow } from '../deltas/views.js';
import type { GraphDeps as Deps } from '../shared/deps.js';
import type { Tx } from '../db/graph.js';
import type { Plain } from '../db/values.js';
import { DeltaDraft } from '../deltas/draft.js';
import { INTERNAL_PROPS, type PropValue } from '../deltas/props.js';
import { writeGoverned, type Actor, type WriteOutcome } from '../deltas/service.js';
import { ApiError, conflict, invalid, notFound } from '../errors/catalogue.js';
import { RESERVED_LABELS } from '../shapes/definition.js';
import { identityKey, normalizeName } from './identity.js';
import { CORRECTION_ORIGIN } from '../memories/corrections.js';
import { isPresent } from '../graph/views.js';

/** Dependants a refused deletion names in its error details. */
const DEPENDANTS_SHOWN = 20;

export interface EntityPatch {
  name?: string;
  type?: string;
  properties?: Record<string, PropValue>;
}

interface CommittedEntity {
  props: Record<string, Plain>;
  type: string;
  dependantCount: number;
  dependantIds: string[];
  dependantTypes: string[];
}

/** What entities/get_committed returns. */
interface CommittedRow {
  entity: Record<string, Plain>;
  labels: string[];
  dependant_count: number;
  dependant_ids: string[];
  dependant_types: string[];
}

/** What entities/relationships returns: each relationship of the given entities, from their side. */
interface RelationshipRow {
  entity_id: string;
  relationship_id: string;
  type: string;
  outgoing: boolean;
  other_id: string;
  properties: Record<string, Plain>;
}

/** Locks committed entities (sorted ids) before a correction reads them (cypher/entities/lock.cypher). */
async function lockEntities(tx: Tx, projectId: string, ids: string[]): Promise<void> {
  await tx.run('entities/lock', { ids: [...new Set(ids)].sort(), project_id: projectId });
}

async function committedEntity(tx: Tx, projectId: string, id: string): Promise<CommittedEntity> {
  const row = await tx.one<CommittedRow>('entities/get_committed', {
    id,
    project_id: projectId,
    limit: DEPENDANTS_SHOWN,
  });
  if (!row || !isPresent(row.entity)) throw notFound('entity', id);
  const props = row.entity;
  return {
    props,
    type: typeof props.type === 'string' ? props.type : (row.labels[0] ?? 'Concept'),
    dependantCount: row.dependant_count,
    dependantIds: row.dependant_ids,
    dependantTypes: row.dependant_types,
  };
}

export async function patchEntity(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: EntityPatch,
  apply: boolean,
): Promise<WriteOutcome> {
  if (patch.type !== undefined && RESERVED_LABELS.has(patch.type))
    throw invalid('/body/type', `${patch.type} is a label the service owns`);
  if (patch.name !== undefined && !normalizeName(patch.name)) throw invalid('/body/name', 'must name the entity');
  return writeGoverned(
    deps.graph,
    async (tx) => {
      await lockEntities(tx, actor.projectId, [id]);
      const entity = await committedEntity(tx, actor.projectId, id);
      const draft = new DeltaDraft(CORRECTION_ORIGIN, `correct entity: ${String(entity.props.name ?? id)}`);
      const set: Record<string, PropValue> = { ...(patch.properties ?? {}) };
      const name = patch.name ?? (typeof entity.props.name === 'string' ? entity.props.name : null);
      const type = patch.type ?? entity.type;
      if (patch.name !== undefined)
        Object.assign(set, { name: patch.name, normalized_name: normalizeName(patch.name) });
      if (patch.type !== undefined) set.type = patch.type;
      if (
        (patch.name !== undefined || patch.type !== undefined) &&
        entity.props.identity_key != null &&
        name !== null
      ) {
        set.identity_key = identityKey(actor.projectId, type, name);
      }
      const labels =
        patch.type !== undefined && patch.type !== entity.type ? { add: [patch.type], remove: [entity.type] } : {};
      draft.updateNode(id, set, labels);
      return draft;
    },
    actor,
    apply,
  );
}

/** Refused with 409 naming the dependants (nodes linked to it) unless detach: then they lose the link. */
export async function deleteEntity(
  deps: Deps,
  actor: Actor,
  id: string,
  detach: boolean,
  apply: boolean,
): Promise<WriteOutcome> {
  // Read first, to refuse at once (no delta) while dependants exist; then again under the entity's lock, since a
  // write may link to it in between (that refusal is a failed write, docs/deltas.md).
  const entity = await deps.graph.read((tx) => committedEntity(tx, actor.projectId, id));
  if (entity.dependantCount > 0 && !detach) throw dependantsConflict(id, entity);
  return writeGoverned(
    deps.graph,
    async (tx) => {
      await lockEntities(tx, actor.projectId, [id]);
      const current = await committedEntity(tx, actor.projectId, id);
      if (current.dependantCount > 0 && !detach) throw dependantsConflict(id, current);
      const draft = new DeltaDraft(CORRECTION_ORIGIN, `delete entity: ${String(current.props.name ?? id)}`);
      draft.deleteNode(id);
      return draft;
    },
    actor,
    apply,
  );
}

function dependantsConflict(id: string, entity: CommittedEntity): ApiError {
  return conflict(
    `Entity ${String(entity.props.name ?? id)} (${id}) has ${entity.dependantCount} dependant(s) ` +
      `(${entity.dependantIds.slice(0, 5).join(', ')}${entity.dependantCount > 5 ? ', …' : ''}) over ` +
      `${entity.dependantTypes.join(', ')}; delete with detach=true to drop those links too, or merge it ` +
      'into another entity.',
    {
      entity_id: id,
      dependant_count: entity.dependantCount,
      dependant_ids: entity.dependantIds,
      relationship_types: entity.dependantTypes,
    },
  );
}

const ENGINE_REL_PROPS = new Set([...INTERNAL_PROPS, 'id', 'created_at', 'merged_from']);

/**
 * Merge: every committed relationship of the merged entities is recreated on into (same type,
 * direction and properties, merged_from naming its old end) unless into already has it or it would
 * loop; the merged entities are deleted (their snapshots let revert restore them); into records
 * merged_ids and the merged names as aliases.
 */
export async function mergeEntities(
  deps: Deps,
  actor: Actor,
  into: string,
  from: string[],
  apply: boolean,
): Promise<WriteOutcome & { moved: number }> {
  if (from.includes(into)) throw invalid(`/body/from/${from.indexOf(into)}`, 'must not be the entity merged into');
  let moved = 0;
  const outcome = await writeGoverned(
    deps.graph,
    async (tx) => {
      await lockEntities(tx, actor.projectId, [into, ...from]);
      const target = await committedEntity(tx, actor.projectId, into);
      const merged = [];
      for (const id of from) merged.push(await committedEntity(tx, actor.projectId, id));
      const draft = new DeltaDraft(
        CORRECTION_ORIGIN,
        `merge ${from.length} entit${from.length === 1 ? 'y' : 'ies'} into ${String(target.props.name ?? into)}`,
      );
      const rows = await tx.run<RelationshipRow>('entities/relationships', {
        ids: [into, ...from],
        project_id: actor.projectId,
      });
      const gone = new Set([into, ...from]);
      const key = (type: string, outgoing: boolean, other: string) => `${type}|${outgoing ? 'out' : 'in'}|${other}`;
      const existing = new Set(
        rows.filter((r) => r.entity_id === into).map((r) => key(r.type, r.outgoing, r.other_id)),
      );
      moved = 0;
      for (const r of rows) {
        if (r.entity_id === into || gone.has(r.other_id)) continue;
        const k = key(r.type, r.outgoing, r.other_id);
        if (existing.has(k)) continue;
        existing.add(k);
        const props: Record<string, PropValue> = { merged_from: r.entity_id };
        for (const [name, value] of Object.entries(r.properties)) {
          if (!ENGINE_REL_PROPS.has(name)) props[name] = value as PropValue;
        }
        if (r.outgoing) draft.createRelationship(into, r.type, r.other_id, props);
        else draft.createRelationship(r.other_id, r.type, into, props);
        moved += 1;
      }
      const names = merged
        .map((m) => m.props.name)
        .filter((n): n is string => typeof n === 'string' && n !== target.props.name);
      const list = (v: Plain | undefined): string[] => (Array.isArray(v) ? v.map(String) : []);
      draft.updateNode(into, {
        merged_ids: [...new Set([...list(target.props.merged_ids), ...from])],
        aliases: [...new Set([...list(target.props.aliases), ...names])],
      });
      for (const id of from) draft.deleteNode(id);
      return draft;
    },
    actor,
    apply,
  );
  if (outcome.status === 'failed' && !outcome.error) throw new ApiError('conflict', 'The merge could not be written.');
  return { ...outcome, moved };
}

/**
 * The deltas that touched the entity (created, corrected, linked, merged or deleted it), oldest first; 404
 * when none in this project.
 */
export async function entityHistory(deps: Deps, actor: Actor, id: string): Promise<HistoryRow[]> {
  const rows = await deps.graph.read((tx) =>
    tx.run<HistoryRow>('entities/history', { id, project_id: actor.projectId }),
  );
  if (rows.length === 0) throw notFound('entity', id);
  return rows;
}
