// Re-embedding: stores vectors of the current model; a node queued since it was read (changed by a
// write) is left to the embedding worker, which embeds its newer text. A memory's context vector is the old model's:
// it is removed and the memory queued, so the embedding worker makes it again with this model (the own vector stored
// here it leaves as it is); kept, a vector of the old model would be compared as this model's (of other dimensions:
// a failed search).
UNWIND $rows AS row
MATCH (n)
WHERE elementId(n) = row.element_id AND n.embedding_queued_at IS NULL
CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)
SET n.embedding_model = $model, n.embedding_text_hash = row.text_hash, n.embedding_error = null,
    n.embedding_queued_at = CASE WHEN n.context_text_hash IS NOT NULL THEN datetime() END
REMOVE n.context_embedding, n.context_text_hash
RETURN count(n) AS stored
