// At start (embeddings on): queues every term without a vector of $model and not queued already, so terms made
// before terms had vectors, while embeddings were off, or under another model are embedded by the worker
// (docs/recall.md, "Hops"). A term's vector is made from its name; it is not governed, so no delta is involved.
MATCH (t:Term)
WHERE t.embedding_queued_at IS NULL AND (t.embedding_model IS NULL OR t.embedding_model <> $model)
SET t.embedding_queued_at = datetime()
RETURN count(t) AS queued
