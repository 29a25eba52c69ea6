// Revert: remove the relationships the delta created.
MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'create_relationship'})-[:FROM]->(a)
MATCH (c)-[:TO]->(b)
MATCH (a)-[r]->(b)
WHERE r.id = c.relationship_id
DELETE r
RETURN count(r) AS reverted
