// Revert: restore the old values kept at apply (a missing old value removes the property again).
MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'update_node'})-[:TARGET]->(n)
FOREACH (k IN c.set_keys | SET n[k] = c['old.' + k])
SET n.updated_at = datetime($now)
RETURN count(c) AS reverted
