// Waits for the embedding worker to give every committed memory, chunk and entity of a project its
// vector, so a test reads a graph that no longer changes under it (docs/embeddings.md, the queue).
import { harness } from './harness.js';

export async function waitForEmbeddings(projectId: string, timeoutMs = 180_000): Promise<void> {
  const graph = harness().service.deps.graph;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await graph.read((tx) =>
      tx.runText(
        'MATCH (n:Knowledge {project_id: $p}) WHERE (n:Memory OR n:Chunk OR n:Entity) AND NOT n:Pending ' +
          'AND n.embedding_queued_at IS NOT NULL RETURN count(n) AS n',
        { p: projectId },
      ),
    );
    if (row?.n === 0) return;
    if (Date.now() > deadline) throw new Error(`${String(row?.n)} nodes still wait for a vector`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
