// Re-embedding: stores vectors of the current model; a node queued since it was read (changed by a
// write) is left to the embedding worker, which embeds its newer text.
UNWIND $rows AS row
MATCH (n)
WHERE elementId(n) = row.element_id AND n.embedding_queued_at IS NULL
CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)
SET n.embedding_model = $model, n.embedding_text_hash = row.text_hash, n.embedding_error = null
RETURN count(n) AS stored
