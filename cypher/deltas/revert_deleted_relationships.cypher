// Revert, step 2 of 2: restore the relationships of the recreated nodes. A relationship between two
// nodes this delta deleted was snapshotted from both ends; only its outgoing copy is restored.
MATCH (d:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'delete_node'})-[:HAD_RELATIONSHIP]->(s:RelationshipSnapshot)
MATCH (c)-[:TARGET]->(n)
WHERE NOT (s.direction = 'in' AND EXISTS { MATCH (d)-[:HAS_CHANGE]->(:Change {op: 'delete_node', node_id: s.other_id}) })
CALL (s) {
  OPTIONAL MATCH (k:Knowledge {id: s.other_id}) USING INDEX k:Knowledge(id) WHERE NOT s.other_is_delta
  OPTIONAL MATCH (x:Delta {id: s.other_id}) USING INDEX x:Delta(id) WHERE s.other_is_delta
  RETURN coalesce(k, x) AS m
}
CALL (s, n, m) {
  WITH s, n, m WHERE m IS NOT NULL AND s.direction = 'out'
  CREATE (n)-[r:$(s.type)]->(m)
  FOREACH (k IN s.keys | SET r[k] = s['prop.' + k])
}
CALL (s, n, m) {
  WITH s, n, m WHERE m IS NOT NULL AND s.direction = 'in'
  CREATE (m)-[r:$(s.type)]->(n)
  FOREACH (k IN s.keys | SET r[k] = s['prop.' + k])
}
RETURN count(*) AS restored
