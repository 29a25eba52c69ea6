// How loops are read by their routes (one loop's record, a page of the project's loops, the shape an extraction
// of a document was asked for: POST /v1/documents/{id}/extract) and by their iterations (what a delta holds).
import type { Graph, Tx } from '../db/graph.js';
import { notFound } from '../errors/catalogue.js';
import type { StopReason } from './types.js';
import { isPresent } from '../graph/views.js';

/** A :Loop node's properties, as loops/get and loops/list return them (declared, not checked). */
export interface LoopProps {
  id: string;
  kind: string;
  status?: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | null;
  goal: string;
  subject?: string | null;
  effort: string;
  max_iterations: number;
  quality_threshold: number;
  extractor: string;
  iterations?: number | null;
  quality?: number | null;
  delta_id: string;
  workflow_id: string;
  credits_reserved: number;
  credits_spent?: number | null;
  stop_reason?: StopReason | null;
  created_at: string;
  started_at?: string | null;
  finished_at?: string | null;
  error?: string | null;
}

/** What loops/get and loops/list return: the loop's record. */
interface LoopRow {
  loop: LoopProps;
}

/** The loop's record in the project, or a 404. */
export async function loopRecord(graph: Graph, projectId: string, loopId: string): Promise<LoopProps> {
  const row = await graph.read((tx) => tx.one<LoopRow>('loops/get', { id: loopId, project_id: projectId }));
  if (!row || !isPresent(row.loop)) throw notFound('loop', loopId);
  return row.loop;
}

/** A committed document's title and the shape an extraction was requested through, or a 404. */
export async function extractionRequest(
  graph: Graph,
  projectId: string,
  documentId: string,
): Promise<{ title: string | null; shapeId: string | null }> {
  const row = await graph.read((tx) => tx.one('loops/requested_shape', { id: documentId, project_id: projectId }));
  if (!row) throw notFound('document', documentId);
  return {
    title: typeof row.title === 'string' ? row.title : null,
    shapeId: typeof row.shape_id === 'string' ? row.shape_id : null,
  };
}

/** A page of the project's loop records, newest first (limit + 1 rows: the caller pages with keysetPage). */
export async function listLoopRecords(
  graph: Graph,
  projectId: string,
  options: { status: string | null; limit: number; afterCreatedAt: string | null; afterId: string | null },
): Promise<LoopProps[]> {
  const rows = await graph.read((tx) =>
    tx.run<LoopRow>('loops/list', {
      project_id: projectId,
      status: options.status,
      limit: options.limit,
      after_created_at: options.afterCreatedAt,
      after_id: options.afterId,
    }),
  );
  return rows.map((r) => r.loop);
}

/** Which of the given ids the loop's delta already holds (staged by an earlier attempt of the iteration). */
export async function stagedIds(tx: Tx, deltaId: string, ids: string[]): Promise<Set<string>> {
  const row = await tx.one<{ ids: string[] }>('loops/existing_ids', { delta_id: deltaId, ids });
  return new Set(row?.ids ?? []);
}

/** The entities and relationships (provenance links aside) the loop's delta stages so far. */
export async function deltaTotals(tx: Tx, deltaId: string): Promise<{ entities: number; relationships: number }> {
  const row = await tx.one<{ entities: number; relationships: number }>('loops/delta_totals', { delta_id: deltaId });
  return { entities: Number(row?.entities ?? 0), relationships: Number(row?.relationships ?? 0) };
}
