// The queue: how many nodes wait for a vector and when the oldest joined it (through the queue indexes).
CALL () {
  MATCH (n:Memory) WHERE n.embedding_queued_at IS NOT NULL RETURN n.embedding_queued_at AS at
  UNION ALL
  MATCH (n:Chunk) WHERE n.embedding_queued_at IS NOT NULL RETURN n.embedding_queued_at AS at
  UNION ALL
  MATCH (n:Entity) WHERE n.embedding_queued_at IS NOT NULL RETURN n.embedding_queued_at AS at
  UNION ALL
  MATCH (n:Term) WHERE n.embedding_queued_at IS NOT NULL RETURN n.embedding_queued_at AS at
}
RETURN count(at) AS count, min(at) AS oldest
