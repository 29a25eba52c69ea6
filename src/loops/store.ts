// How loops are read by their routes: one loop's record, and the shape an extraction of a document
// was asked for (POST /v1/documents/{id}/extract).
import type { Graph } from '../db/graph.js';
import type { Plain } from '../db/values.js';
import { notFound } from '../errors/catalogue.js';

/** The loop's record in the project, or a 404. */
export async function loopRecord(graph: Graph, projectId: string, loopId: string): Promise<Record<string, Plain>> {
  const row = await graph.read((tx) => tx.one('loops/get', { id: loopId, project_id: projectId }));
  if (!row) throw notFound('loop', loopId);
  return row.loop as Record<string, Plain>;
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
