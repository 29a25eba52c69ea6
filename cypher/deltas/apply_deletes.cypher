// Apply, step 1 of 2: snapshot each node to delete onto its change record (labels, properties) and
// each of its relationships as a :RelationshipSnapshot naming the other node by id, so revert can
// restore them even when both ends are deleted by this delta. Nothing is deleted yet.
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'delete_node'})-[:TARGET]->(n)
USING INDEX d:Delta(id)
// Vectors and the embedding queue are not part of a change record: a restored node is embedded anew.
WITH c, n, [k IN keys(n) WHERE NOT k IN ['embedding', 'embedding_model', 'embedding_text_hash', 'embedding_queued_at',
  'embedding_error']] AS kept
SET c.old_labels = [l IN labels(n) WHERE l <> 'Knowledge'], c.old_keys = kept
FOREACH (k IN kept | SET c['old.' + k] = n[k])
WITH c, n
CALL (c, n) {
  MATCH (n)-[r]-(m)
  WHERE (m:Knowledge OR m:Delta) AND m <> n
  CREATE (c)-[:HAD_RELATIONSHIP]->(s:RelationshipSnapshot {
    type: type(r), direction: CASE WHEN startNode(r) = n THEN 'out' ELSE 'in' END,
    other_id: m.id, other_is_delta: m:Delta, keys: keys(r)
  })
  FOREACH (k IN keys(r) | SET s['prop.' + k] = r[k])
}
RETURN count(c) AS applied
