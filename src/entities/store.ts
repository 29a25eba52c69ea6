// How the Entities area's committed entities are looked up inside a caller's transaction (memory
// writes, extraction staging, corrections): by id, or by normalized name across types.
import type { Tx } from '../db/graph.js';

export interface EntityKey {
  id: string;
  name: string;
  type: string;
}

/**
 * cypher/entities/find_by_ids.cypher's and cypher/entities/by_normalized_name.cypher's rows (the
 * latter's name is the normalized name asked for). Declared, not checked.
 */
interface EntityKeyRow {
  id: string;
  name: string;
  type: string;
}

const keyOf = (row: EntityKeyRow): EntityKey => ({ id: row.id, name: row.name, type: row.type });

/** The committed entities of the project among these ids. */
export async function entitiesByIds(tx: Tx, projectId: string, ids: string[]): Promise<EntityKey[]> {
  if (ids.length === 0) return [];
  return (await tx.run<EntityKeyRow>('entities/find_by_ids', { ids, project_id: projectId })).map(keyOf);
}

/** The committed entities of the project whose normalized name is one of these (name: the normalized name). */
export async function entitiesByNormalizedNames(tx: Tx, projectId: string, names: string[]): Promise<EntityKey[]> {
  if (names.length === 0) return [];
  return (await tx.run<EntityKeyRow>('entities/by_normalized_name', { names, project_id: projectId })).map(keyOf);
}
