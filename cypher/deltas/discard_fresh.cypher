// Takes back a delta written at once by a request that failed before answering: the nodes it
// created (with their relationships), its change records and the delta itself.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
OPTIONAL MATCH (d)-[:CREATED]->(n:Knowledge)
OPTIONAL MATCH (d)-[:HAS_CHANGE]->(c:Change)
WITH d, collect(DISTINCT n) AS nodes, collect(DISTINCT c) AS changes
FOREACH (n IN nodes | DETACH DELETE n)
FOREACH (c IN changes | DETACH DELETE c)
DETACH DELETE d
RETURN size(nodes) AS removed
