// Assertions shared by the areas whose writes answer the governed-write result (docs/deltas.md).
import assert from 'node:assert/strict';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The fields every governed-write result carries, for a write applied at once or left staged. */
export function assertGovernedWrite(
  body: Record<string, unknown>,
  projectId: string,
  status: 'applied' | 'staged',
): void {
  assert.match(String(body.id), UUID);
  assert.equal(body.status, status);
  assert.equal(body.applied, status === 'applied');
  assert.equal(body.project_id, projectId);
  assert.match(String(body.delta_id), UUID);
  assert.match(String(body.request_id), UUID);
}
