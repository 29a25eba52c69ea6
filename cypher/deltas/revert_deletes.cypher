// Revert: recreate deleted nodes from their snapshot, with their relationships.
MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'delete_node'})
CREATE (n:Knowledge:$(c.old_labels))
FOREACH (k IN c.old_keys | SET n[k] = c['old.' + k])
CREATE (c)-[:TARGET]->(n)
WITH c, n
CALL (c, n) {
  MATCH (c)-[h:HAD_RELATIONSHIP {direction: 'out'}]->(m)
  CREATE (n)-[r:$(h.type)]->(m)
  FOREACH (k IN h.keys | SET r[k] = h['prop.' + k])
  DELETE h
}
CALL (c, n) {
  MATCH (c)-[h:HAD_RELATIONSHIP {direction: 'in'}]->(m)
  CREATE (m)-[r:$(h.type)]->(n)
  FOREACH (k IN h.keys | SET r[k] = h['prop.' + k])
  DELETE h
}
RETURN count(n) AS reverted
