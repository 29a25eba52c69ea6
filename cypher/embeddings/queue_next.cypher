// The oldest queued nodes of each kind (each read through its queue index), oldest first overall,
// with what their text is made of.
CALL () {
  MATCH (n:Memory) WHERE n.embedding_queued_at IS NOT NULL
  WITH n ORDER BY n.embedding_queued_at LIMIT toInteger($limit) RETURN n
  UNION ALL
  MATCH (n:Chunk) WHERE n.embedding_queued_at IS NOT NULL
  WITH n ORDER BY n.embedding_queued_at LIMIT toInteger($limit) RETURN n
  UNION ALL
  MATCH (n:Entity) WHERE n.embedding_queued_at IS NOT NULL
  WITH n ORDER BY n.embedding_queued_at LIMIT toInteger($limit) RETURN n
  UNION ALL
  MATCH (n:Term) WHERE n.embedding_queued_at IS NOT NULL
  WITH n ORDER BY n.embedding_queued_at LIMIT toInteger($limit) RETURN n
}
WITH n ORDER BY n.embedding_queued_at, n.id
LIMIT toInteger($limit)
// A memory's committed predecessor in its episode: its context vector is made from that text and its own.
CALL (n) {
  OPTIONAL MATCH (previous:Memory)-[r:NEXT]->(n)
  WHERE n:Memory AND r.pending IS NULL AND NOT previous:Pending
  RETURN previous.content AS previous
  LIMIT 1
}
RETURN elementId(n) AS element_id, labels(n) AS labels, n.embedding_queued_at AS queued_at,
       n.embedding_model AS model, n.embedding_text_hash AS text_hash, n.context_text_hash AS context_hash,
       previous, n {.*, embedding: null, context_embedding: null} AS props
