// The connection and sync run as the API shows them: the secret only as set/fingerprint/set_at.
import type { Answer } from '../http/answer.js';
import type { connectionSchema, syncSchema } from './schemas.js';
import type { ConnectionViewRow, SyncProps } from './store.js';

export type SyncView = Answer<typeof syncSchema>;
export type ConnectionView = Answer<typeof connectionSchema>;

const int = (v: number | null | undefined): number => (typeof v === 'number' ? v : 0);

export function syncLinks(connectionId: string, syncId: string, deltaId: string): Record<string, string> {
  return {
    self: `/v1/connections/${connectionId}/syncs/${syncId}`,
    events: `/v1/connections/${connectionId}/syncs/${syncId}/events`,
    connection: `/v1/connections/${connectionId}`,
    delta: `/v1/deltas/${deltaId}`,
    audit: '/v1/preflight/audit',
  };
}

export function syncView(y: SyncProps): SyncView {
  const connectionId = y.connection_id;
  return {
    sync_id: y.id,
    connection_id: connectionId,
    delta_id: y.delta_id,
    status: y.status,
    trigger: y.trigger ?? 'manual',
    full_refresh: y.full_refresh === true,
    since: y.since ?? null,
    cursor: y.cursor ?? null,
    pages: int(y.pages),
    records: { seen: int(y.seen), created: int(y.created), updated: int(y.updated), unchanged: int(y.unchanged) },
    delta_status: y.delta_status ?? null,
    error: y.error ?? null,
    resumed_from: y.resumed_from ?? null,
    workflow_id: y.workflow_id ?? null,
    apply_outcome: y.apply_outcome ?? null,
    created_at: y.created_at ?? null,
    started_at: y.started_at ?? null,
    finished_at: y.finished_at ?? null,
    links: syncLinks(connectionId, y.id, y.delta_id),
  };
}

export function connectionView(row: ConnectionViewRow): ConnectionView {
  const c = row.connection;
  const secret = row.secret;
  const last = row.last_sync;
  return {
    id: c.id,
    project_id: c.project_id,
    name: c.name,
    kind: c.kind,
    config: JSON.parse(c.config_json ?? '{}') as Record<string, unknown>,
    target: { route: c.target_route ?? 'document' },
    apply_policy: c.apply_policy ?? 'stage',
    schedule: c.schedule_every ? { every: c.schedule_every } : null,
    status: c.status ?? 'untested',
    status_reason: c.status_reason ?? null,
    secret: {
      set: secret !== null,
      fingerprint: secret?.fingerprint ?? null,
      set_at: secret?.set_at ?? null,
      key_id: secret?.key_id ?? null,
    },
    cursor: row.cursor ?? null,
    pending: row.pending === true,
    delta_id: c.delta_id,
    last_sync: last ? syncView(last) : null,
    created_at: c.created_at ?? null,
    updated_at: c.updated_at ?? null,
  };
}
