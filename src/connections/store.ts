// Reading a connection for work: its record (configuration parsed) and its token, opened in memory
// only for an outbound call. Nothing here ever returns the sealed or opened secret to a client.
import type { Config } from '../config/config.js';
import type { Graph, Tx } from '../db/graph.js';
import type { Plain } from '../db/values.js';
import { notFound } from '../errors/catalogue.js';
import { open, seal } from './secrets.js';
import type { ConnectionKind, ConnectionStatus, ConnectorConfig, StatusReason, SyncStatus } from './types.js';
import { isPresent } from '../graph/views.js';

export interface ConnectionRecord {
  id: string;
  projectId: string;
  organizationId: string;
  name: string;
  kind: ConnectionKind;
  config: ConnectorConfig;
  targetRoute: 'document' | 'submission';
  applyPolicy: 'stage' | 'apply_if_safe';
  scheduleEvery: string | null;
  status: ConnectionStatus;
  createdBy: string;
  /** The key scheduled syncs act as: the creator's, or the key that last resumed the connection. */
  actingKeyId: string;
  pending: boolean;
}

/** A :Connection node's properties (declared, not checked). */
export interface ConnectionProps {
  id: string;
  project_id: string;
  organization_id: string;
  name: string;
  kind: ConnectionKind;
  config_json: string;
  target_route?: 'document' | 'submission' | null;
  apply_policy?: 'stage' | 'apply_if_safe' | null;
  schedule_every?: string | null;
  status?: ConnectionStatus | null;
  status_reason?: StatusReason | null;
  created_by?: string | null;
  acting_key_id?: string | null;
  delta_id: string;
  created_at?: string | null;
  updated_at?: string | null;
}

/** A :Sync node's properties, with its delta's status where the statement adds it (declared, not checked). */
export interface SyncProps {
  id: string;
  connection_id: string;
  delta_id: string;
  status: SyncStatus;
  trigger?: 'manual' | 'schedule' | null;
  full_refresh?: boolean | null;
  since?: string | null;
  cursor?: string | null;
  pages?: number | null;
  seen?: number | null;
  created?: number | null;
  updated?: number | null;
  unchanged?: number | null;
  delta_status?: string | null;
  error?: string | null;
  resumed_from?: string | null;
  workflow_id?: string | null;
  apply_outcome?: string | null;
  created_at?: string | null;
  started_at?: string | null;
  finished_at?: string | null;
  /** The run of the sync's Temporal workflow. */
  run_id?: string | null;
  /** The key the run acts as. */
  key_id?: string | null;
  /** The upstream has no page after the last one fetched. */
  exhausted?: boolean | null;
  /** JSON text of the connector's state for the next page. */
  next_page?: string | null;
}

/** What connections/get, get_by_id and lock return: the record's properties and whether it is staged. */
export interface ConnectionRow {
  connection: ConnectionProps;
  pending: boolean;
}

/** What connections/get and list return for a view: the row, the secret's public facts, the last sync, the cursor. */
export interface ConnectionViewRow extends ConnectionRow {
  secret: { fingerprint: string | null; set_at: string | null; key_id: string | null } | null;
  last_sync: SyncProps | null;
  cursor: string | null;
}

/** What connections/sync_get and sync_list return: one sync run's record. */
export interface SyncRow {
  sync: SyncProps;
}

/** What connections/get_secret returns: the sealed token. */
interface SealedRow {
  ciphertext: string;
  iv: string;
  tag: string;
  key_id: string;
}

export function toRecord(props: ConnectionProps, pending: boolean): ConnectionRecord {
  return {
    id: props.id,
    projectId: props.project_id,
    organizationId: props.organization_id,
    name: props.name,
    kind: props.kind,
    config: JSON.parse(props.config_json) as ConnectorConfig,
    targetRoute: props.target_route === 'submission' ? 'submission' : 'document',
    applyPolicy: props.apply_policy === 'apply_if_safe' ? 'apply_if_safe' : 'stage',
    scheduleEvery: props.schedule_every ? props.schedule_every : null,
    status: props.status ?? 'untested',
    createdBy: props.created_by ?? '',
    actingKeyId: props.acting_key_id ?? props.created_by ?? '',
    pending,
  };
}

/** Takes the connection's write lock and reads it (cypher/connections/lock.cypher); null when there is none. */
async function lockedConnection(tx: Tx, projectId: string | null, id: string): Promise<ConnectionRecord | null> {
  const row = await tx.one<ConnectionRow>('connections/lock', { id, project_id: projectId });
  return row ? toRecord(row.connection, row.pending === true) : null;
}

export async function lockConnection(tx: Tx, projectId: string, id: string): Promise<ConnectionRecord> {
  const connection = await lockedConnection(tx, projectId, id);
  if (!connection) throw notFound('connection', id);
  return connection;
}

export async function readConnection(graph: Graph, projectId: string, id: string): Promise<ConnectionRecord> {
  const row = await graph.read((tx) => tx.one<ConnectionRow>('connections/get', { id, project_id: projectId }));
  if (!row || !isPresent(row.connection)) throw notFound('connection', id);
  return toRecord(row.connection, row.pending === true);
}

/**
 * The connection and its opened token (null when it has none: revoked, or a feed without one), read in one
 * transaction under the connection's lock, or null when there is no such connection. Every outbound call with a
 * stored token reads them so: read one after the other, an edit moving the connection to another host with a new
 * secret could commit in between and pair the old host with the new token.
 */
export async function connectionWithToken(
  graph: Graph,
  secrets: Config['secrets'],
  projectId: string | null,
  id: string,
): Promise<{ connection: ConnectionRecord; token: string | null } | null> {
  return graph.write(
    async (tx) => {
      const connection = await lockedConnection(tx, projectId, id);
      if (!connection) return null;
      const sealed = await tx.one<SealedRow>('connections/get_secret', {
        connection_id: id,
        project_id: connection.projectId,
      });
      return { connection, token: sealed ? open(secrets, connection.projectId, id, sealed) : null };
    },
    { purpose: 'connection:read-for-call' },
  );
}

/**
 * An edit the engine makes to a connection's status (a test's outcome, a sync's, an acting key refused), decided
 * from the connection as it is under its lock: a pause, resume, revoke or edit that committed while the test or
 * sync ran is what `decide` sees, so the engine's write never undoes it. `decide` answers the properties to set, or
 * null to leave the connection as it is. Answers the status the connection has afterwards (null when it is gone).
 */
export async function changeConnection(
  graph: Graph,
  projectId: string,
  id: string,
  decide: (current: ConnectionRecord) => Record<string, Plain> | null,
): Promise<ConnectionStatus | null> {
  return graph.write(
    async (tx) => {
      const current = await lockedConnection(tx, projectId, id);
      if (!current) return null;
      const set = decide(current);
      if (set === null) return current.status;
      await tx.run('connections/update', { id, project_id: projectId, set, now: new Date().toISOString() });
      return set.status === undefined ? current.status : (set.status as ConnectionStatus);
    },
    { purpose: 'connection:update' },
  );
}

/** The connection's row as its view reads it (connection, pending, secret), or a 404. */
export async function connectionRow(graph: Graph, projectId: string, id: string): Promise<ConnectionViewRow> {
  const row = await graph.read((tx) => tx.one<ConnectionViewRow>('connections/get', { id, project_id: projectId }));
  if (!row || !isPresent(row.connection)) throw notFound('connection', id);
  return row;
}

/** The project's connections, as their views read them. */
export async function listConnections(graph: Graph, projectId: string, limit: number): Promise<ConnectionViewRow[]> {
  const rows = await graph.read((tx) =>
    tx.run<ConnectionViewRow>('connections/list', { project_id: projectId, limit }),
  );
  return rows.filter((r) => isPresent(r.connection)); // deleted while it was read
}

/** One sync run of the connection, or a 404. */
export async function syncOfConnection(
  graph: Graph,
  projectId: string,
  connectionId: string,
  syncId: string,
): Promise<SyncProps> {
  const row = await graph.read((tx) =>
    tx.one<SyncRow>('connections/sync_get', {
      sync_id: syncId,
      connection_id: connectionId,
      project_id: projectId,
    }),
  );
  if (!row) throw notFound('sync', syncId);
  return row.sync;
}

/** The connection's sync runs, newest first. */
export async function listSyncs(
  graph: Graph,
  projectId: string,
  connectionId: string,
  limit: number,
): Promise<SyncProps[]> {
  const rows = await graph.read((tx) =>
    tx.run<SyncRow>('connections/sync_list', {
      connection_id: connectionId,
      project_id: projectId,
      limit,
    }),
  );
  return rows.map((r) => r.sync);
}

/** Seals the token and stores it beside the connection (outside any delta). */
export async function putSecret(tx: Tx, secrets: Config['secrets'], projectId: string, id: string, token: string) {
  const sealed = seal(secrets, projectId, id, token);
  await tx.run('connections/put_secret', {
    connection_id: id,
    project_id: projectId,
    now: new Date().toISOString(),
    ...sealed,
  });
}
