// Slices: create, publish a new version and delete, each one governed write (a delta of origin
// "slice"). Checks that need the graph (name free, latest version, subject entity committed) run
// first and answer with the plain error envelope; the version_key constraint settles races.
import { DeltaDraft } from '../deltas/draft.js';
import { writeGoverned, type Actor, type WriteOutcome } from '../deltas/service.js';
import { ApiError, invalid, notFound } from '../errors/catalogue.js';
import { notLatestVersion, type NewerVersion } from '../shared/versions.js';
import type { Graph } from '../db/graph.js';
import type { SliceDefinition } from './definition.js';
import { loadSlice, stageSlice, type SliceRecord, type StagedSlice } from './store.js';

export const SLICE_ORIGIN = 'slice';

export interface SliceWrite extends WriteOutcome {
  staged: StagedSlice;
}

/** A subject given by id must be a committed entity of the project. */
async function checkSubject(graph: Graph, projectId: string, def: SliceDefinition): Promise<void> {
  if (!def.subject || !('id' in def.subject)) return;
  const id = def.subject.id;
  const row = await graph.read((tx) => tx.one('slices/subject_entity', { id, project_id: projectId }));
  if (!row) throw invalid('/body/subject/id', `no committed entity ${id} in this project`);
}

/** The committed slice, or 404 (a staged one is not there yet for reads and changes). */
export async function committedSlice(graph: Graph, actor: Actor, id: string): Promise<SliceRecord> {
  const slice = await loadSlice(graph, id, actor.projectId);
  if (!slice || slice.pending) throw notFound('slice', id);
  return slice;
}

export async function createSlice(
  graph: Graph,
  actor: Actor,
  name: string,
  def: SliceDefinition,
  apply: boolean,
): Promise<SliceWrite> {
  const taken = await graph.read((tx) => tx.one('slices/name_taken', { name, project_id: actor.projectId }));
  if (taken) {
    const where = taken.pending ? `a slice staged in delta ${String(taken.delta_id)}` : 'a slice of this project';
    throw new ApiError(
      'conflict',
      `The name ${name} is taken by ${where}; publish a new version of it with POST ` +
        `/v1/slices/${String(taken.id)}/versions.`,
      {
        fields: [{ field: '/body/name', reason: 'is taken' }],
        slice_id: taken.id,
        ...(taken.pending ? { delta_id: taken.delta_id } : {}),
      },
    );
  }
  await checkSubject(graph, actor.projectId, def);
  let staged: StagedSlice | undefined;
  const outcome = await writeGoverned(
    graph,
    () => {
      const draft = new DeltaDraft(SLICE_ORIGIN, `slice: ${name} v1`);
      staged = stageSlice(draft, actor.projectId, name, 1, def, null);
      return Promise.resolve(draft);
    },
    actor,
    apply,
  );
  return { ...outcome, staged: staged! };
}

export async function publishSliceVersion(
  graph: Graph,
  actor: Actor,
  id: string,
  def: SliceDefinition,
  apply: boolean,
): Promise<SliceWrite & { previous: SliceRecord }> {
  const previous = await committedSlice(graph, actor, id);
  const newer = await graph.read((tx) =>
    tx.one<NewerVersion>('slices/newer_version', {
      project_id: actor.projectId,
      name: previous.name,
      version: previous.version,
    }),
  );
  if (newer) throw notLatestVersion('Slice', id, previous, newer);
  await checkSubject(graph, actor.projectId, def);
  const version = previous.version + 1;
  let staged: StagedSlice | undefined;
  const outcome = await writeGoverned(
    graph,
    () => {
      const draft = new DeltaDraft(SLICE_ORIGIN, `slice: ${previous.name} v${version}`);
      staged = stageSlice(draft, actor.projectId, previous.name, version, def, previous.id);
      return Promise.resolve(draft);
    },
    actor,
    apply,
  );
  return { ...outcome, staged: staged!, previous };
}

/** Deletes one committed version through a delta; older and newer versions stay. */
export async function deleteSlice(
  graph: Graph,
  actor: Actor,
  id: string,
  apply: boolean,
): Promise<WriteOutcome & { slice: SliceRecord }> {
  const slice = await committedSlice(graph, actor, id);
  const outcome = await writeGoverned(
    graph,
    () => {
      const draft = new DeltaDraft(SLICE_ORIGIN, `delete slice: ${slice.name} v${slice.version}`);
      draft.deleteNode(id);
      return Promise.resolve(draft);
    },
    actor,
    apply,
  );
  return { ...outcome, slice };
}
