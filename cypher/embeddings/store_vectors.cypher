// Stores the vectors of one batch and takes the nodes off the queue; a node queued again since it was
// read (a newer embedding_queued_at) keeps its place, so its newer text is embedded next. A row carries the
// node's own vector (row.vector, null when its text did not change) and, for a memory of an episode, its context
// vector (row.context: made from its episode predecessor's text and its own, or its own alone when it opens the
// episode; row.context_hash null and no vector when it is in no episode, which removes one it had).
UNWIND $rows AS row
MATCH (n)
WHERE elementId(n) = row.element_id AND n.embedding_queued_at = datetime(row.queued_at)
CALL (n, row) {
  WITH n, row WHERE row.vector IS NOT NULL
  CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)
  SET n.embedding_text_hash = row.text_hash
}
CALL (n, row) {
  WITH n, row WHERE row.context IS NOT NULL
  CALL db.create.setNodeVectorProperty(n, 'context_embedding', row.context)
}
FOREACH (_ IN CASE WHEN row.context IS NULL AND row.context_hash IS NULL THEN [1] ELSE [] END |
  REMOVE n.context_embedding)
SET n.embedding_model = $model, n.context_text_hash = row.context_hash, n.embedding_error = null,
    n.embedding_queued_at = null
RETURN count(n) AS stored
