// Terms' vectors (docs/recall.md, "Hops"): a term is embedded from its name, queued by the mention worker when it
// makes the term (embedding_queued_at, as memories are queued by their delta), so the hops can walk from the terms
// nearest the question by meaning ("instruments" to the violin and the clarinet a memory mentions).
CREATE INDEX term_embedding_queue IF NOT EXISTS FOR (t:Term) ON (t.embedding_queued_at);
