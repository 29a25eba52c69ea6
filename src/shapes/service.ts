// Shapes: create, publish a new version, retire and delete, each one governed write (a delta of
// origin "shape"). Checks that need the graph (name free, latest version, not built-in, not in use)
// run first and answer with the plain error envelope; the version_key constraint settles races.
import { DeltaDraft } from '../deltas/draft.js';
import { writeGoverned, type Actor, type WriteOutcome } from '../deltas/service.js';
import { ApiError, conflict, notFound } from '../errors/catalogue.js';
import { notLatestVersion } from '../shared/versions.js';
import type { Graph, Tx } from '../db/graph.js';
import type { Definition } from './definition.js';
import { loadShape, newerShapeVersion, shapeHoldingName, stageShape, type StagedShape } from './store.js';
import type { ShapeRecord } from './types.js';

/** What this service uses: the graph only, not the HTTP dependency bag (src/http/deps.ts). */
type Deps = { graph: Graph };

export interface ShapeWrite extends WriteOutcome {
  staged: StagedShape;
}

function builtinRefusal(shape: ShapeRecord, action: string): ApiError {
  return new ApiError(
    'forbidden',
    `Shape ${shape.name} (${shape.id}) is built in and cannot be ${action}; create a project shape instead.`,
    {
      shape_id: shape.id,
      builtin: true,
    },
  );
}

/** The committed shape, or 404; built-in shapes are refused with 403 for any change. */
async function changeableShape(deps: Deps, actor: Actor, id: string, action: string): Promise<ShapeRecord> {
  const shape = await loadShape(deps.graph, id, actor.projectId);
  if (!shape) throw notFound('shape', id);
  if (shape.builtin) throw builtinRefusal(shape, action);
  return shape;
}

export async function createShape(
  deps: Deps,
  actor: Actor,
  name: string,
  def: Definition,
  apply: boolean,
): Promise<ShapeWrite> {
  const taken = await deps.graph.read((tx) => shapeHoldingName(tx, actor.projectId, name));
  if (taken) {
    const where = taken.builtin
      ? 'a built-in shape'
      : taken.pending
        ? `a shape staged in delta ${String(taken.delta_id)}`
        : 'a shape of this project';
    throw new ApiError(
      'conflict',
      `The name ${name} is taken by ${where}; publish a new version of it with POST ` +
        `/v1/shapes/${String(taken.id)}/versions.`,
      {
        fields: [{ field: '/body/name', reason: 'is taken' }],
        shape_id: taken.id,
        ...(taken.pending ? { delta_id: taken.delta_id } : {}),
      },
    );
  }
  let staged: StagedShape | undefined;
  const outcome = await writeGoverned(
    deps.graph,
    () => {
      const draft = new DeltaDraft('shape', `shape: ${name} v1`);
      staged = stageShape(draft, actor.projectId, name, 1, def, null);
      return Promise.resolve(draft);
    },
    actor,
    apply,
  );
  return { ...outcome, staged: staged! };
}

export async function publishVersion(
  deps: Deps,
  actor: Actor,
  id: string,
  def: Definition,
  apply: boolean,
): Promise<ShapeWrite & { previous: ShapeRecord }> {
  const previous = await changeableShape(deps, actor, id, 'given a new version');
  const newer = await deps.graph.read((tx) => newerShapeVersion(tx, actor.projectId, previous.name, previous.version));
  if (newer) throw notLatestVersion('Shape', id, previous, newer);
  const version = previous.version + 1;
  let staged: StagedShape | undefined;
  const outcome = await writeGoverned(
    deps.graph,
    () => {
      const draft = new DeltaDraft('shape', `shape: ${previous.name} v${version}`);
      staged = stageShape(draft, actor.projectId, previous.name, version, def, previous.id);
      return Promise.resolve(draft);
    },
    actor,
    apply,
  );
  return { ...outcome, staged: staged!, previous };
}

export interface ShapeUsage {
  node_count: number;
  node_ids: string[];
  staged_delta_ids: string[];
}

export async function shapeUsage(deps: Deps, actor: Actor, id: string): Promise<ShapeUsage> {
  return deps.graph.read((tx) => usageIn(tx, actor, id));
}

async function usageIn(tx: Tx, actor: Actor, id: string): Promise<ShapeUsage> {
  const row = await tx.one('shapes/usage', { id, project_id: actor.projectId });
  return {
    node_count: Number(row?.node_count ?? 0),
    node_ids: ((row?.node_ids ?? []) as string[]).map(String),
    staged_delta_ids: [...new Set(((row?.staged_delta_ids ?? []) as string[]).map(String))].sort(),
  };
}

/** Deletes one version with its definition nodes, through a delta; refused (409) while anything uses it. */
export async function deleteShape(
  deps: Deps,
  actor: Actor,
  id: string,
  apply: boolean,
): Promise<WriteOutcome & { shape: ShapeRecord }> {
  const shape = await changeableShape(deps, actor, id, 'deleted');
  refuseInUse(shape, await shapeUsage(deps, actor, id));
  const outcome = await writeGoverned(
    deps.graph,
    async (tx) => {
      // Counted again under the shape's lock, which every write through the shape takes too
      // (deltas/lock_shapes): one that committed since the count above is seen, one still to come waits.
      if (!(await tx.one('shapes/lock', { id, project_id: actor.projectId }))) throw notFound('shape', id);
      refuseInUse(shape, await usageIn(tx, actor, id));
      const draft = new DeltaDraft('shape', `delete shape: ${shape.name} v${shape.version}`);
      const ids = await tx.run<{ id: string }>('shapes/definition_node_ids', { id, project_id: actor.projectId });
      for (const row of ids) draft.deleteNode(row.id);
      draft.deleteNode(id);
      return draft;
    },
    actor,
    apply,
  );
  return { ...outcome, shape };
}

/** 409 naming what uses the shape, when anything does. */
function refuseInUse(shape: ShapeRecord, usage: ShapeUsage): void {
  const id = shape.id;
  if (usage.node_count > 0 || usage.staged_delta_ids.length > 0) {
    const parts = [
      usage.node_count > 0
        ? `${usage.node_count} committed node(s) ` +
          `(${usage.node_ids.slice(0, 3).join(', ')}${usage.node_count > 3 ? ', …' : ''})`
        : '',
      usage.staged_delta_ids.length > 0 ? `staged delta(s) ${usage.staged_delta_ids.join(', ')}` : '',
    ].filter(Boolean);
    throw conflict(
      `Shape ${shape.name} v${shape.version} (${id}) is in use by ${parts.join(' and ')}; it is not deleted. ` +
        `Retire it instead (POST /v1/shapes/${id}/retire), or remove what uses it.`,
      {
        shape_id: id,
        used_by: usage,
      },
    );
  }
}

/** Marks a version retired (kept, readable, left out of the ontology); allowed while in use. */
export async function retireShape(
  deps: Deps,
  actor: Actor,
  id: string,
  apply: boolean,
): Promise<WriteOutcome & { shape: ShapeRecord }> {
  const shape = await changeableShape(deps, actor, id, 'retired');
  if (shape.status === 'retired')
    throw conflict(`Shape ${id} is already retired.`, { shape_id: id, status: shape.status });
  const outcome = await writeGoverned(
    deps.graph,
    () => {
      const draft = new DeltaDraft('shape', `retire shape: ${shape.name} v${shape.version}`);
      draft.updateNode(id, { status: 'retired' });
      return Promise.resolve(draft);
    },
    actor,
    apply,
  );
  return { ...outcome, shape };
}
