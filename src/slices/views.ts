// Slices as the API shows them: the normalized definition flattened beside id, name and version.
import type { Answer } from '../http/answer.js';
import type { sliceSchema } from './schemas.js';
import type { SliceDefinition } from './definition.js';
import type { SliceRecord, StagedSlice } from './store.js';

export function sliceView(s: SliceRecord): Answer<typeof sliceSchema> {
  const d = s.definition;
  return {
    id: s.id,
    name: s.name,
    version: s.version,
    project_id: s.project_id,
    description: d.description,
    planes: d.planes,
    filters: d.filters,
    subject: d.subject,
    hops: d.hops,
    relationship_types: d.relationship_types,
    time_window: d.time_window,
    query: d.query,
    budget: d.budget,
    format: d.format,
    supersedes: s.supersedes,
    superseded_by: s.superseded_by,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** A slice staged for review: what it will be once its delta is applied. */
export function stagedSliceView(
  staged: StagedSlice,
  projectId: string,
  def: SliceDefinition,
  deltaId: string,
  supersedes: string | null,
): Answer<typeof sliceSchema> {
  return sliceView({
    ...staged,
    project_id: projectId,
    definition: def,
    pending: true,
    delta_id: deltaId,
    supersedes,
    superseded_by: null,
    created_at: null,
    updated_at: null,
  });
}
