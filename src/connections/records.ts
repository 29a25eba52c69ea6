// Stages one page of upstream records into the sync's delta. Ids are derived from the connection
// and the record's external id, so a retried page or a re-fetched record names the same node: a new
// record is created, a changed one (other content hash) is updated, an unchanged one stages nothing.
import crypto from 'node:crypto';
import type { Tx } from '../db/graph.js';
import { tenantToken } from '../db/tenant.js';
import { DeltaDraft } from '../deltas/draft.js';
import { stageChanges } from '../deltas/service.js';
import { chunkText, countTokens, type Chunk } from '../documents/ingest/index.js';
import { CHUNK_OPTIONS, draftChunks } from '../documents/service.js';
import type { ConnectionRecord } from './store.js';
import type { SyncRecord } from './types.js';

export interface StagedCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** A UUID-shaped id from a digest: the same connection and external id always give the same node id. */
export function recordId(connectionId: string, externalId: string, part = 'record'): string {
  const h = crypto.createHash('sha256').update(`gks-connection:${connectionId}:${part}:${externalId}`).digest('hex');
  const variant = ((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

function contentHash(record: SyncRecord): string {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([record.title, record.text, record.url]))
    .digest('hex');
}

interface Existing {
  exists: boolean;
  pending: boolean;
  deltaId: string | null;
  projectId: string | null;
  contentHash: string | null;
  chunkIds: string[];
  changedInDelta: boolean;
}

/** The record's chunks, drafted with ids derived from the record and its content hash. */
function stageChunks(
  draft: DeltaDraft,
  connection: ConnectionRecord,
  record: SyncRecord,
  documentId: string,
  hash: string,
  tenant: string,
  chunks: Chunk[],
): void {
  draftChunks(draft, documentId, chunks, tenant, (chunk) =>
    recordId(connection.id, record.external_id, `chunk:${hash}:${chunk.index}`),
  );
}

function documentProps(
  connection: ConnectionRecord,
  record: SyncRecord,
  hash: string,
  chunkCount: number,
): Record<string, string | number | boolean | null> {
  return {
    title: record.title.slice(0, 500),
    size_bytes: Buffer.byteLength(record.text, 'utf8'),
    source_url: record.url,
    char_count: record.text.length,
    token_count: countTokens(record.text),
    chunk_count: chunkCount,
    content_hash: hash,
    rag_ready: record.text.trim() !== '',
    external_updated_at: record.updated_at,
  };
}

/** What connections/existing_records returns for each record id asked (a node or not, and where it stands). */
interface ExistingRow {
  id: string;
  exists: boolean;
  pending: boolean | null;
  delta_id: string | null;
  project_id: string | null;
  content_hash: string | null;
  chunk_ids: string[] | null;
  changed_in_delta: boolean;
}

export async function stageRecords(
  tx: Tx,
  connection: ConnectionRecord,
  deltaId: string,
  records: SyncRecord[],
): Promise<StagedCounts> {
  const byId = new Map<string, SyncRecord>();
  for (const r of records) byId.set(recordId(connection.id, r.external_id), r); // the last occurrence on a page wins
  const rows = await tx.run<ExistingRow>('connections/existing_records', { ids: [...byId.keys()], delta_id: deltaId });
  const existing = new Map<string, Existing>(
    rows.map((r) => [
      r.id,
      {
        exists: r.exists === true,
        pending: r.pending === true,
        deltaId: r.delta_id,
        projectId: r.project_id,
        contentHash: r.content_hash,
        chunkIds: r.chunk_ids ?? [],
        changedInDelta: r.changed_in_delta === true,
      },
    ]),
  );
  const draft = new DeltaDraft('connection_sync', '');
  const counts: StagedCounts = { created: 0, updated: 0, unchanged: 0 };
  const tenant = tenantToken(connection.projectId);
  for (const [id, record] of byId) {
    const found = existing.get(id);
    const hash = contentHash(record);
    if (found?.exists && found.projectId !== connection.projectId)
      throw new Error(`record ${record.external_id} maps to a node of another project`);
    if (found?.exists && (found.pending || found.changedInDelta)) {
      // Already in this sync's delta (a retried or repeated page); a node pending elsewhere is a conflict.
      if (found.deltaId !== deltaId && found.pending)
        throw new Error(`record ${record.external_id} is pending in another delta (${found.deltaId})`);
      counts.unchanged += 1;
      continue;
    }
    if (found?.exists && found.contentHash === hash) {
      counts.unchanged += 1;
      continue;
    }
    const common = { source_connection_id: connection.id, external_id: record.external_id };
    if (connection.targetRoute === 'submission') {
      const props = {
        kind: `connection:${connection.kind}`,
        content: record.text,
        title: record.title.slice(0, 500),
        source_url: record.url,
        content_hash: hash,
        external_updated_at: record.updated_at,
      };
      if (found?.exists) {
        draft.updateNode(id, props);
        counts.updated += 1;
      } else {
        draft.createNode(['Submission'], { ...props, ...common, route: 'connection', tenant }, { id });
        draft.createRelationship(id, 'SYNCED_FROM', connection.id);
        counts.created += 1;
      }
      continue;
    }
    const chunks = chunkText(record.text, CHUNK_OPTIONS);
    if (found?.exists) {
      draft.updateNode(id, documentProps(connection, record, hash, chunks.length));
      for (const chunkId of found.chunkIds) draft.deleteNode(chunkId);
      stageChunks(draft, connection, record, id, hash, tenant, chunks);
      counts.updated += 1;
    } else {
      draft.createNode(
        ['Document'],
        {
          ...documentProps(connection, record, hash, chunks.length),
          ...common,
          type: 'connection',
          mime_type: 'text/markdown',
          final_url: null,
          filename: null,
          tags: [],
          stage: 'indexed',
          added_by: connection.createdBy,
          added_by_name: connection.name,
          governance_status: 'active',
          extraction_count: 0,
          extracted_token_count: 0,
          extracted_char_count: 0,
          tenant,
        },
        { id },
      );
      stageChunks(draft, connection, record, id, hash, tenant, chunks);
      draft.createRelationship(id, 'SYNCED_FROM', connection.id);
      counts.created += 1;
    }
  }
  if (draft.size > 0) await stageChanges(tx, draft, deltaId, connection.projectId, new Date().toISOString());
  return counts;
}
