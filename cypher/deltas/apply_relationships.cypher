// Apply: new relationships lose their pending mark.
MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'create_relationship'})-[:FROM]->(a)
MATCH (c)-[:TO]->(b)
MATCH (a)-[r]->(b)
WHERE r.id = c.relationship_id
REMOVE r.pending
RETURN count(r) AS applied
