// Apply: new nodes lose :Pending and take their identity key (unique for committed entities).
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id})-[:CREATED]->(n:Pending)
USING INDEX d:Delta(id)
REMOVE n:Pending
SET n.identity_key = n.pending_identity_key
REMOVE n.pending_identity_key
// with $embed a memory, chunk or entity joins the embedding queue (docs/embeddings.md)
SET n.embedding_queued_at = CASE WHEN $embed AND (n:Memory OR n:Chunk OR n:Entity) THEN datetime($now) END,
    // and a memory the mention worker's (docs/recall.md, "Hops")
    n.mentions_queued_at = CASE WHEN n:Memory THEN datetime($now) END
RETURN count(n) AS applied
