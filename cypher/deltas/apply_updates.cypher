// Apply: keep each old value as old.<key> on the change record (for revert), then set the new one;
// add and remove the labels the change names.
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'update_node'})-[:TARGET]->(n)
USING INDEX d:Delta(id)
FOREACH (k IN c.set_keys | SET c['old.' + k] = n[k])
FOREACH (k IN c.set_keys | SET n[k] = c['new.' + k])
SET n.updated_at = datetime($now)
// with $embed an updated memory, chunk or entity joins the embedding queue (its text may have changed)
SET n.embedding_queued_at = CASE WHEN $embed AND (n:Memory OR n:Chunk OR n:Entity) THEN datetime($now)
  ELSE n.embedding_queued_at END,
    n.mentions_queued_at = CASE WHEN n:Memory THEN datetime($now) ELSE n.mentions_queued_at END
SET n:$(coalesce(c.add_labels, []))
REMOVE n:$(coalesce(c.remove_labels, []))
RETURN count(c) AS applied
