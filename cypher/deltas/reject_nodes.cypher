// Reject: remove the delta's pending nodes and its change records.
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id})
USING INDEX d:Delta(id)
OPTIONAL MATCH (d)-[:CREATED]->(n:Pending)
DETACH DELETE n
WITH DISTINCT d
OPTIONAL MATCH (d)-[:HAS_CHANGE]->(c:Change)
DETACH DELETE c
RETURN count(c) AS removed
