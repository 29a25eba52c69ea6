// The committed fact edges of one memory: domain relationships between entities that carry its
// id as memory_id (docs/facts.md), found from the subject the memory links to (the edge starts there).
MATCH (m:Memory:Knowledge {id: $id})-[hs:HAS_SUBJECT]->(s:Entity)
USING INDEX m:Knowledge(id)
WHERE m.project_id = $project_id AND hs.pending IS NULL
MATCH (s)-[r]->(o:Entity)
WHERE r.memory_id = $id AND r.pending IS NULL
RETURN DISTINCT r.id AS relationship_id, s.id AS from_id, o.id AS to_id, type(r) AS type
ORDER BY relationship_id
