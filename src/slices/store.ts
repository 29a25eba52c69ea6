// How a slice lives in the graph: one :Knowledge:Slice node per version with flat properties (name,
// version, planes, hops, budget …) and the whole normalized definition as canonical JSON text
// (`definition`), -[:FOCUSES_ON]-> its subject entity when given by id, -[:SUPERSEDES]-> the
// version it replaced. Staged through a delta like every governed node.
import type { Graph } from '../db/graph.js';
import type { Plain } from '../db/values.js';
import type { DeltaDraft } from '../deltas/draft.js';
import { canonicalJsonOf } from '../shared/canonicalJson.js';
import type { SliceDefinition } from './definition.js';
import { isPresent } from '../graph/views.js';

export const SLICE_LABEL = 'Slice';

export interface SliceRecord {
  id: string;
  name: string;
  version: number;
  project_id: string;
  definition: SliceDefinition;
  pending: boolean;
  delta_id: string | null;
  supersedes: string | null;
  superseded_by: string | null;
  created_at: string | null;
  updated_at: string | null;
}

type Props = Record<string, Plain>;
const str = (v: Plain | undefined): string | null => (typeof v === 'string' ? v : null);

export function sliceRecord(row: Record<string, Plain>): SliceRecord {
  const s = (row.slice ?? {}) as Props;
  return {
    id: String(s.id),
    name: String(s.name),
    version: Number(s.version ?? 1),
    project_id: String(s.project_id),
    definition: JSON.parse(String(s.definition)) as SliceDefinition,
    pending: row.pending === true,
    delta_id: str(s.delta_id),
    supersedes: str(row.supersedes ?? null),
    superseded_by: str(row.superseded_by ?? null),
    created_at: str(s.created_at),
    updated_at: str(s.updated_at),
  };
}

/** The slice (committed or staged) of the project, or null. */
export async function loadSlice(graph: Graph, id: string, projectId: string): Promise<SliceRecord | null> {
  const row = await graph.read((tx) => tx.one('slices/get', { id, project_id: projectId }));
  // Deleted while it was read: no properties (isPresent), as if not found.
  return row && isPresent(row.slice) ? sliceRecord(row) : null;
}

export interface StagedSlice {
  id: string;
  name: string;
  version: number;
}

/** Stages the slice node (and its FOCUSES_ON and SUPERSEDES links) into the draft. */
export function stageSlice(
  draft: DeltaDraft,
  projectId: string,
  name: string,
  version: number,
  def: SliceDefinition,
  supersedes: string | null,
): StagedSlice {
  const subjectId = def.subject && 'id' in def.subject ? def.subject.id : null;
  const id = draft.createNode([SLICE_LABEL], {
    name,
    version,
    version_key: `${projectId}|${name}|${version}`,
    description: def.description,
    planes: def.planes,
    hops: def.hops,
    format: def.format,
    query: def.query,
    max_tokens: def.budget.max_tokens,
    tokenizer: def.budget.tokenizer,
    subject_id: subjectId,
    relationship_types: def.relationship_types,
    // A normalized definition is plain JSON data (strings, numbers, arrays, null).
    definition: canonicalJsonOf(def),
  });
  if (subjectId) draft.createRelationship(id, 'FOCUSES_ON', subjectId);
  if (supersedes) draft.createRelationship(id, 'SUPERSEDES', supersedes);
  return { id, name, version };
}

/** A page of the project's committed slices, by name and version (limit + 1 rows, for the keyset page). */
export async function listSlices(
  graph: Graph,
  projectId: string,
  filter: { name: string | null; after: { n: string; v: number; i: string } | null; limit: number },
): Promise<Record<string, Plain>[]> {
  return graph.read((tx) =>
    tx.run('slices/list', {
      project_id: projectId,
      name: filter.name,
      limit: filter.limit + 1,
      after_name: filter.after?.n ?? null,
      after_version: filter.after?.v ?? null,
      after_id: filter.after?.i ?? null,
    }),
  );
}
