// Revert: queues for embedding the memories, chunks and entities a reverted delta restored or changed
// back, in the revert's own transaction. (Applying a delta queues its nodes as it writes them:
// deltas/create, apply_creates and apply_updates set embedding_queued_at.)
MATCH (d:Delta {id: $delta_id})
CALL (d) {
  MATCH (d)-[:CREATED]->(n)
  WHERE (n:Memory OR n:Chunk OR n:Entity) AND NOT n:Pending
  RETURN n
  UNION
  MATCH (d)-[:HAS_CHANGE]->(:Change)-[:TARGET]->(n)
  WHERE (n:Memory OR n:Chunk OR n:Entity) AND NOT n:Pending
  RETURN n
}
SET n.embedding_queued_at = datetime($now)
RETURN count(n) AS queued
