// Queues for embedding what a delta applied or reverted: the memories, chunks and entities it
// created (committed), updated, or (on revert) restored. Runs in the delta's own transaction, so a
// committed write is never lost to the worker; setting one property is all it costs.
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
