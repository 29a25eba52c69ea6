// How deltas are read: one delta (its record, and its changes), a page of a project's deltas, and a
// delta's status for the areas that act on deltas (the preflight, connection syncs). Every read of
// the Deltas area's statements outside its writes goes through here.
import type { Tx } from '../db/graph.js';
import { notFound } from '../errors/catalogue.js';
import type { ChangeRow, DeltaProps } from './views.js';

/** The delta's record in the project, or null. */
export async function deltaRecord(tx: Tx, projectId: string, deltaId: string): Promise<DeltaProps | null> {
  const row = await tx.one<{ delta: DeltaProps | null }>('deltas/get', { delta_id: deltaId, project_id: projectId });
  return row?.delta ?? null;
}

/** The delta's status (staged, applied, ...), or null when the project has no such delta. */
export async function deltaStatus(tx: Tx, projectId: string, deltaId: string): Promise<string | null> {
  const delta = await deltaRecord(tx, projectId, deltaId);
  return delta ? delta.status : null;
}

/** The delta and up to `limit` of its changes (one more is read to tell whether the list was cut). */
export async function deltaWithChanges(
  tx: Tx,
  projectId: string,
  deltaId: string,
  limit: number,
): Promise<{ delta: DeltaProps; changes: ChangeRow[] }> {
  const delta = await deltaRecord(tx, projectId, deltaId);
  if (!delta) throw notFound('delta', deltaId);
  return { delta, changes: await deltaChanges(tx, projectId, deltaId, limit) };
}

/** Up to `limit` + 1 changes of a delta, in their order (the one more tells whether the list was cut). */
export function deltaChanges(tx: Tx, projectId: string, deltaId: string, limit: number): Promise<ChangeRow[]> {
  return tx.run<ChangeRow>('deltas/changes', { delta_id: deltaId, project_id: projectId, limit: limit + 1 });
}

export interface DeltaFilter {
  status: string | null;
  origin: string | null;
  after: { created_at: string; id: string } | null;
  limit: number;
}

/** A page of the project's deltas, newest first (limit + 1 rows, for the keyset page). */
export async function listDeltas(tx: Tx, projectId: string, filter: DeltaFilter): Promise<DeltaProps[]> {
  const rows = await tx.run<{ delta: DeltaProps }>('deltas/list', {
    project_id: projectId,
    status: filter.status,
    origin: filter.origin,
    after_created_at: filter.after?.created_at ?? null,
    after_id: filter.after?.id ?? null,
    limit: filter.limit + 1,
  });
  return rows.map((r) => r.delta);
}
