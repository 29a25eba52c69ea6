// The connection and sync run as the API shows them: the secret only as set/fingerprint/set_at.
import type { Plain } from '../db/values.js';
import type { Row } from '../db/graph.js';

type Props = Record<string, Plain>;

const str = (v: Plain | undefined): string | null => (v === null || v === undefined ? null : String(v));
const int = (v: Plain | undefined): number => (typeof v === 'number' ? v : 0);

export function syncLinks(connectionId: string, syncId: string, deltaId: string): Record<string, string> {
  return {
    self: `/v1/connections/${connectionId}/syncs/${syncId}`,
    events: `/v1/connections/${connectionId}/syncs/${syncId}/events`,
    connection: `/v1/connections/${connectionId}`,
    delta: `/v1/deltas/${deltaId}`,
    audit: '/v1/preflight/audit',
  };
}

export function syncView(y: Props): Record<string, Plain> {
  const connectionId = String(y.connection_id);
  return {
    sync_id: String(y.id),
    connection_id: connectionId,
    delta_id: String(y.delta_id),
    status: String(y.status),
    trigger: String(y.trigger ?? 'manual'),
    full_refresh: y.full_refresh === true,
    since: str(y.since),
    cursor: str(y.cursor),
    pages: int(y.pages),
    records: { seen: int(y.seen), created: int(y.created), updated: int(y.updated), unchanged: int(y.unchanged) },
    delta_status: str(y.delta_status),
    error: str(y.error),
    resumed_from: str(y.resumed_from),
    workflow_id: str(y.workflow_id),
    apply_outcome: str(y.apply_outcome),
    created_at: str(y.created_at),
    started_at: str(y.started_at),
    finished_at: str(y.finished_at),
    links: syncLinks(connectionId, String(y.id), String(y.delta_id)),
  };
}

export function connectionView(row: Row): Record<string, Plain> {
  const c = row.connection as Props;
  const secret = row.secret as Props | null;
  const last = row.last_sync as Props | null;
  return {
    id: String(c.id),
    project_id: String(c.project_id),
    name: String(c.name),
    kind: String(c.kind),
    config: JSON.parse(String(c.config_json ?? '{}')) as Plain,
    target: { route: String(c.target_route ?? 'document') },
    apply_policy: String(c.apply_policy ?? 'stage'),
    schedule: c.schedule_every ? { every: String(c.schedule_every) } : null,
    status: String(c.status ?? 'untested'),
    status_reason: str(c.status_reason),
    secret: {
      set: secret !== null,
      fingerprint: str(secret?.fingerprint),
      set_at: str(secret?.set_at),
      key_id: str(secret?.key_id),
    },
    cursor: str(row.cursor),
    pending: row.pending === true,
    delta_id: String(c.delta_id),
    last_sync: last ? syncView(last) : null,
    created_at: str(c.created_at),
    updated_at: str(c.updated_at),
  };
}
