// Reject: remove the delta's pending relationships.
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'create_relationship'})-[:FROM]->(a)
USING INDEX d:Delta(id)
MATCH (c)-[:TO]->(b)
// Both ends first: the relationship is sought between them, never among all of one end's relationships.
WITH c, a, b
MATCH (a)-[r]->(b)
WHERE r.id = c.relationship_id AND r.pending = true
DELETE r
RETURN count(r) AS removed
