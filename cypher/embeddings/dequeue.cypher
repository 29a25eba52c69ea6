// Takes nodes off the queue without a new vector: their text is unchanged since their vector was made
// (row.keep), or they have no text (their vector, if any, is removed), or the engine refused it
// (row.reason kept as embedding_error).
UNWIND $rows AS row
MATCH (n)
WHERE elementId(n) = row.element_id AND n.embedding_queued_at = datetime(row.queued_at)
FOREACH (_ IN CASE WHEN row.keep THEN [] ELSE [1] END |
  REMOVE n.embedding, n.embedding_model, n.embedding_text_hash, n.context_embedding, n.context_text_hash)
SET n.embedding_error = row.reason, n.embedding_queued_at = null
RETURN count(n) AS dequeued
