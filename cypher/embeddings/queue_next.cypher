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
}
WITH n ORDER BY n.embedding_queued_at, n.id
LIMIT toInteger($limit)
RETURN elementId(n) AS element_id, labels(n) AS labels, n.embedding_queued_at AS queued_at,
       n.embedding_model AS model, n.embedding_text_hash AS text_hash, n {.*, embedding: null} AS props
