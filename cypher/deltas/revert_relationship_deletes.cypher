// Revert: recreate each deleted relationship between its two ends (found by id, so ends this delta
// deleted and revert has just recreated are found too) with its properties.
MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'delete_relationship'})
WHERE c.old_keys IS NOT NULL
CALL (c) { MATCH (a:Knowledge {id: c.from_id}) USING INDEX a:Knowledge(id) RETURN a }
CALL (c) { MATCH (b:Knowledge {id: c.to_id}) USING INDEX b:Knowledge(id) RETURN b }
CREATE (a)-[r:$(c.type)]->(b)
FOREACH (k IN c.old_keys | SET r[k] = c['old.' + k])
RETURN count(r) AS reverted
