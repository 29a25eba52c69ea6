// Property updates of committed nodes, staged as change records: set_keys and a new.<key> per value.
MATCH (d:Delta {id: $delta_id})
UNWIND $updates AS x
CALL (x) { MATCH (n:Knowledge {id: x.node_id}) RETURN n }
WITH d, x, n
WHERE n.project_id = $project_id AND NOT n:Pending
CREATE (c:Change {id: x.change_id, delta_id: $delta_id, seq: x.seq, op: 'update_node',
                  node_id: x.node_id, set_keys: x.keys})
SET c += x.new_values
CREATE (d)-[:HAS_CHANGE]->(c)
CREATE (c)-[:TARGET]->(n)
RETURN count(c) AS staged
