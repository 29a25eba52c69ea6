// Reject, revert or discard of a delta that created connections: their sealed secrets (engine-owned
// nodes outside the delta, keyed by connection id) are destroyed with them, so no secret outlives
// its connection and a later delta can never bring one back.
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id})-[:CREATED]->(c:Connection)
USING INDEX d:Delta(id)
MATCH (s:ConnectionSecret {connection_id: c.id})
DETACH DELETE s
RETURN count(s) AS destroyed
