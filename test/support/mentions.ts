// Waits for the mention worker to read the terms of every committed memory of a project, so a test asks recall's hops
// of a graph whose (:Memory)-[:MENTIONS]->(:Term) links no longer change under it (docs/recall.md, "Hops").
import { harness } from './harness.js';

export async function waitForMentions(projectId: string, timeoutMs = 180_000): Promise<void> {
  const graph = harness().service.deps.graph;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await graph.read((tx) =>
      tx.runText(
        'MATCH (m:Memory {project_id: $p}) WHERE NOT m:Pending AND m.mentions_queued_at IS NOT NULL ' +
          'RETURN count(m) AS n',
        { p: projectId },
      ),
    );
    if (row?.n === 0) return;
    if (Date.now() > deadline) throw new Error(`${String(row?.n)} memories still wait for their terms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
