// Stores the vectors of one batch and takes the nodes off the queue; a node queued again since it was
// read (a newer embedding_queued_at) keeps its place, so its newer text is embedded next.
UNWIND $rows AS row
MATCH (n)
WHERE elementId(n) = row.element_id AND n.embedding_queued_at = datetime(row.queued_at)
CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)
SET n.embedding_model = $model, n.embedding_text_hash = row.text_hash, n.embedding_error = null,
    n.embedding_queued_at = null
RETURN count(n) AS stored
