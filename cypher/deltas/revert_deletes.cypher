// Revert, step 1 of 2: recreate deleted nodes from their snapshot (same id, labels, properties).
MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'delete_node'})
CREATE (n:Knowledge:$(c.old_labels))
FOREACH (k IN c.old_keys | SET n[k] = c['old.' + k])
CREATE (c)-[:TARGET]->(n)
RETURN count(n) AS reverted
