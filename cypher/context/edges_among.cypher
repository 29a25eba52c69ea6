// Committed relationships whose two ends are both among the chosen entities.
UNWIND $ids AS id
MATCH (a:Knowledge {id: id})-[r]->(b:Entity:Knowledge)
USING INDEX a:Knowledge(id)
WHERE a:Entity AND b.id IN $ids AND a.project_id = $project_id AND b.project_id = $project_id
  AND r.pending IS NULL AND NOT a:Pending AND NOT b:Pending
  AND (r.valid_from IS NULL OR r.valid_from <= datetime($valid_at))
  AND (r.valid_to IS NULL OR r.valid_to > datetime($valid_at))
RETURN a.id AS source, type(r) AS type, b.id AS target
ORDER BY source, type, target
