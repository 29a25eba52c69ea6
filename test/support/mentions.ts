// Waits for the mention worker to read the terms of every committed memory of a project, so a test asks recall's hops
// of a graph whose (:Memory)-[:MENTIONS]->(:Term) links no longer change under it (docs/recall.md, "Hops").
import { waitUntilNone } from './embeddings.js';

export function waitForMentions(projectId: string, timeoutMs = 180_000): Promise<void> {
  return waitUntilNone(
    projectId,
    'MATCH (m:Memory {project_id: $p}) WHERE NOT m:Pending AND m.mentions_queued_at IS NOT NULL RETURN count(m) AS n',
    'memories still wait for their terms',
    timeoutMs,
  );
}

/**
 * Waits for the mention worker to read every committed memory's terms and for the embedding worker to embed each
 * term's name, so a test asks recall's walk by meaning (src/memories/termWalk.ts) of terms that all have a vector.
 */
export async function waitForTermVectors(projectId: string, timeoutMs = 180_000): Promise<void> {
  await waitForMentions(projectId, timeoutMs);
  await waitUntilNone(
    projectId,
    'MATCH (t:Term {project_id: $p}) WHERE t.embedding_queued_at IS NOT NULL RETURN count(t) AS n',
    'terms still wait for their vectors',
    timeoutMs,
  );
}
