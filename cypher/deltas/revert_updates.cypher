// Revert: restore the old values kept at apply (a missing old value removes the property again) and
// swap back the labels the update added and removed.
MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'update_node'})-[:TARGET]->(n)
FOREACH (k IN c.set_keys | SET n[k] = c['old.' + k])
SET n.updated_at = datetime($now)
REMOVE n:$(coalesce(c.add_labels, []))
SET n:$(coalesce(c.remove_labels, []))
RETURN count(c) AS reverted
