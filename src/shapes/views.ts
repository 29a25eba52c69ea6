// Shapes as the API shows them: the full definition (ShapeDef JSON) on single reads and writes,
// a summary with the labels and relationship types in lists.
import type { Answer } from '../http/answer.js';
import type { shapeSchema } from './schemas.js';
import type { Plain } from '../db/values.js';
import type { Definition } from './definition.js';
import type { StagedShape } from './store.js';
import type { ShapeRecord } from './types.js';

export function shapeView(s: ShapeRecord): Answer<typeof shapeSchema> {
  return {
    id: s.id,
    name: s.name,
    version: s.version,
    status: s.status,
    builtin: s.builtin,
    project_id: s.project_id,
    description: s.description ?? null,
    schema_tag: s.schema_tag ?? null,
    entity_types: s.entity_types,
    relationship_types: s.relationship_types,
    orphans_allowed: s.orphans_allowed ?? [],
    supersedes: s.supersedes,
    superseded_by: s.superseded_by,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** A shape staged for review: what it will be once its delta is applied. */
export function stagedShapeView(
  staged: StagedShape,
  projectId: string,
  def: Definition,
  supersedes: string | null,
): Answer<typeof shapeSchema> {
  return shapeView({
    ...def,
    id: staged.id,
    name: staged.name,
    version: staged.version,
    schema_tag: staged.schema_tag,
    status: 'published',
    builtin: false,
    project_id: projectId,
    supersedes,
    superseded_by: null,
    created_at: null,
    updated_at: null,
  });
}

export function shapeSummary(row: Record<string, Plain>): Record<string, Plain> {
  const s = (row.shape ?? {}) as Record<string, Plain>;
  return {
    id: s.id ?? null,
    name: s.name ?? null,
    version: s.version ?? null,
    status: s.status ?? null,
    builtin: s.builtin === true,
    project_id: s.project_id ?? null,
    description: s.description ?? null,
    schema_tag: s.schema_tag ?? null,
    entity_type_labels: row.labels ?? [],
    relationship_type_names: row.types ?? [],
    superseded_by: row.superseded_by ?? null,
    created_at: s.created_at ?? null,
    updated_at: s.updated_at ?? null,
  };
}
