// Deletions of committed nodes, staged as change records; apply snapshots what revert needs.
MATCH (d:Delta {id: $delta_id})
UNWIND $deletes AS x
CALL (x) { MATCH (n:Knowledge {id: x.node_id}) USING INDEX n:Knowledge(id) RETURN n }
WITH d, x, n
WHERE n.project_id = $project_id AND NOT n:Pending
CREATE (c:Change {id: x.change_id, delta_id: $delta_id, seq: x.seq, op: 'delete_node', node_id: x.node_id})
CREATE (d)-[:HAS_CHANGE]->(c)
CREATE (c)-[:TARGET]->(n)
RETURN count(c) AS staged
