// New nodes of a delta: labelled :Pending beside their own labels, tied to the delta by CREATED.
MATCH (d:Delta {id: $delta_id})
UNWIND $nodes AS x
CREATE (n:Knowledge:Pending:$(x.labels))
SET n = x.props,
    n.id = x.id, n.project_id = $project_id, n.delta_id = $delta_id,
    n.pending_identity_key = x.identity_key,
    n.created_at = datetime($now), n.updated_at = datetime($now)
CREATE (d)-[:CREATED {seq: x.seq, change_id: x.change_id}]->(n)
RETURN count(n) AS staged
