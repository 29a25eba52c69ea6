// Reject: remove the delta's pending relationships.
MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'create_relationship'})-[:FROM]->(a)
MATCH (c)-[:TO]->(b)
MATCH (a)-[r]->(b)
WHERE r.id = c.relationship_id AND r.pending = true
DELETE r
RETURN count(r) AS removed
