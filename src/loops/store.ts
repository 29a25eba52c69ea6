// The loops area's reads of loop records in the graph.
import type { Graph } from '../db/graph.js';
import type { Plain } from '../db/values.js';

/** A page of the project's loop records, newest first (limit + 1 rows: the caller pages with keysetPage). */
export async function listLoopRecords(
  graph: Graph,
  projectId: string,
  options: { status: string | null; limit: number; afterCreatedAt: string | null; afterId: string | null },
): Promise<Record<string, Plain>[]> {
  const rows = await graph.read((tx) =>
    tx.run('loops/list', {
      project_id: projectId,
      status: options.status,
      limit: options.limit,
      after_created_at: options.afterCreatedAt,
      after_id: options.afterId,
    }),
  );
  return rows.map((r) => r.loop as Record<string, Plain>);
}
