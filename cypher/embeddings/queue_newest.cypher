// The fresh queue: nodes queued since $since (a minute ago), newest first (each kind read through its
// queue index), with what their text is made of. The worker serves these before the older backlog.
CALL () {
  MATCH (n:Memory) WHERE n.embedding_queued_at >= datetime($since)
  WITH n ORDER BY n.embedding_queued_at DESC LIMIT toInteger($limit) RETURN n
  UNION ALL
  MATCH (n:Chunk) WHERE n.embedding_queued_at >= datetime($since)
  WITH n ORDER BY n.embedding_queued_at DESC LIMIT toInteger($limit) RETURN n
  UNION ALL
  MATCH (n:Entity) WHERE n.embedding_queued_at >= datetime($since)
  WITH n ORDER BY n.embedding_queued_at DESC LIMIT toInteger($limit) RETURN n
}
WITH n ORDER BY n.embedding_queued_at DESC, n.id
LIMIT toInteger($limit)
RETURN elementId(n) AS element_id, labels(n) AS labels, n.embedding_queued_at AS queued_at,
       n.embedding_model AS model, n.embedding_text_hash AS text_hash, n {.*, embedding: null} AS props
