// Property updates of committed nodes, staged as change records: set_keys and a new.<key> per value,
// and the labels the update adds and removes (an entity's type is its label).
MATCH (d:Delta {id: $delta_id})
UNWIND $updates AS x
CALL (x) { MATCH (n:Knowledge {id: x.node_id}) USING INDEX n:Knowledge(id) RETURN n }
WITH d, x, n
WHERE n.project_id = $project_id AND NOT n:Pending
CREATE (c:Change {id: x.change_id, delta_id: $delta_id, seq: x.seq, op: 'update_node',
                  node_id: x.node_id, set_keys: x.keys, add_labels: x.add_labels, remove_labels: x.remove_labels})
SET c += x.new_values
CREATE (d)-[:HAS_CHANGE]->(c)
CREATE (c)-[:TARGET]->(n)
RETURN count(c) AS staged
