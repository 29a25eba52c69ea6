// Re-embedding: the next window of committed memories, chunks and entities in id order after $after
// (through the Knowledge id index), with what their text is made of and the model of their vector.
// Queued nodes are the embedding worker's and are left to it.
MATCH (n:Knowledge)
WHERE n.id > $after AND (n:Memory OR n:Chunk OR n:Entity) AND NOT n:Pending
WITH n ORDER BY n.id
LIMIT toInteger($window)
RETURN n.id AS id, elementId(n) AS element_id, labels(n) AS labels, n.embedding_model AS model,
       n.embedding_queued_at IS NOT NULL AS queued, n {.*, embedding: null, context_embedding: null} AS props
