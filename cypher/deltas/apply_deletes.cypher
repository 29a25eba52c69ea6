// Apply: snapshot the node (labels, properties, relationships as HAD_RELATIONSHIP records) onto its
// change record so revert can restore it, then delete it.
MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'delete_node'})-[:TARGET]->(n)
SET c.old_labels = [l IN labels(n) WHERE l <> 'Knowledge'], c.old_keys = keys(n)
FOREACH (k IN keys(n) | SET c['old.' + k] = n[k])
WITH c, n
CALL (c, n) {
  MATCH (n)-[r]-(m)
  WHERE NOT m:Change AND m <> n
  CREATE (c)-[h:HAD_RELATIONSHIP]->(m)
  SET h.type = type(r), h.direction = CASE WHEN startNode(r) = n THEN 'out' ELSE 'in' END, h.keys = keys(r)
  FOREACH (k IN keys(r) | SET h['prop.' + k] = r[k])
}
DETACH DELETE n
RETURN count(c) AS applied
