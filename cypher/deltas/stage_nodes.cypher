// New nodes staged in a delta that exists already (a loop stages iteration by iteration), tied to it by CREATED.
// They carry :Pending beside their own labels and keep their identity in pending_identity_key; applying the delta
// gives them their committed form (deltas/apply_creates). A new delta is created with its first nodes by
// deltas/create, which writes them as this statement does when the delta is staged.
// $shared: the properties every new node has with the same value, sent once; each row's props are the rest.
// $labels: the labels when every new node has the same, else null and each row has its own (x.labels). A row
// without identity_key has none (null).
MATCH (d:Delta {id: $delta_id})
UNWIND $nodes AS x
CREATE (n:Knowledge:Pending:$(coalesce(x.labels, $labels)))
SET n = x.props, n += $shared,
    n.id = x.id, n.project_id = $project_id, n.delta_id = $delta_id,
    n.pending_identity_key = x.identity_key,
    n.created_at = datetime($now), n.updated_at = datetime($now)
CREATE (d)-[:CREATED {seq: x.seq, change_id: x.change_id}]->(n)
RETURN count(n) AS staged
