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
