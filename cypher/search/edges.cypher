// Committed relationships around the search results: for each result node, at most $per_node of
// its relationships to other committed nodes of the project valid at $valid_at (docs/facts.md), those
// among the results first.
UNWIND $ids AS id
MATCH (m:Knowledge {id: id})
USING INDEX m:Knowledge(id)
WHERE m.project_id = $project_id
CALL (m) {
  MATCH (m)-[r]-(o:Knowledge)
  WHERE r.pending IS NULL AND NOT o:Pending AND o.project_id = $project_id
    AND (r.valid_from IS NULL OR r.valid_from <= datetime($valid_at))
    AND (r.valid_to IS NULL OR r.valid_to > datetime($valid_at))
  WITH r, o
  ORDER BY CASE WHEN o.id IN $ids THEN 0 ELSE 1 END, type(r), o.id
  LIMIT toInteger($per_node)
  RETURN r
}
WITH DISTINCT r
WITH r, startNode(r) AS a, endNode(r) AS b
RETURN r.id AS id, type(r) AS type, a.id AS source, b.id AS target,
       [l IN labels(a) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0] AS source_label, a.name AS source_name,
       [l IN labels(b) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0] AS target_label, b.name AS target_name,
       properties(r) AS properties
ORDER BY type, source, target, id
