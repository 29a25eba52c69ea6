// Waits for the embedding worker to give every committed memory, chunk and entity of a project its
// vector, so a test reads a graph that no longer changes under it (docs/embeddings.md, the queue).
import { harness } from './harness.js';

/** Polls `count` (a statement answering `n` for the project's $p) until it answers 0; throws after the timeout. */
export async function waitUntilNone(
  projectId: string,
  count: string,
  waiting: string,
  timeoutMs: number,
): Promise<void> {
  const graph = harness().service.deps.graph;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await graph.read((tx) => tx.runText(count, { p: projectId }));
    if (row?.n === 0) return;
    if (Date.now() > deadline) throw new Error(`${String(row?.n)} ${waiting}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function waitForEmbeddings(projectId: string, timeoutMs = 180_000): Promise<void> {
  return waitUntilNone(
    projectId,
    'MATCH (n:Knowledge {project_id: $p}) WHERE (n:Memory OR n:Chunk OR n:Entity) AND NOT n:Pending ' +
      'AND n.embedding_queued_at IS NOT NULL RETURN count(n) AS n',
    'nodes still wait for a vector',
    timeoutMs,
  );
}
