// New nodes of a delta that exists already (a loop stages iteration by iteration), tied to it by CREATED.
// A new delta is created with its first nodes by deltas/create, which writes them as this statement does.
// Staged ones carry :Pending beside their own labels and keep their identity in pending_identity_key; with
// $committed (a write applied at once) they are written in their final, committed form in the same transaction.
MATCH (d:Delta {id: $delta_id})
UNWIND $nodes AS x
CREATE (n:Knowledge:$(CASE WHEN $committed THEN x.labels ELSE x.labels + ['Pending'] END))
SET n = x.props,
    n.id = x.id, n.project_id = $project_id, n.delta_id = $delta_id,
    n.pending_identity_key = CASE WHEN $committed THEN null ELSE x.identity_key END,
    n.identity_key = CASE WHEN $committed THEN x.identity_key END,
    n.created_at = datetime($now), n.updated_at = datetime($now),
    // committed with $embed: a memory, chunk or entity joins the embedding queue (docs/embeddings.md)
    n.embedding_queued_at = CASE WHEN $embed AND any(l IN x.labels WHERE l IN ['Memory', 'Chunk', 'Entity'])
      THEN datetime($now) END
CREATE (d)-[:CREATED {seq: x.seq, change_id: x.change_id}]->(n)
RETURN count(n) AS staged
