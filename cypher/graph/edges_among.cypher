// The relationships among a set of the project's nodes (a neighbourhood), committed only unless
// pending work is asked for; valid at $valid_at (as_of, else now; docs/facts.md).
UNWIND $ids AS id
MATCH (a:Knowledge {id: id})-[r]->(b:Knowledge)
USING INDEX a:Knowledge(id)
WHERE b.id IN $ids AND a.project_id = $project_id AND b.project_id = $project_id
  AND ($include_pending OR r.pending IS NULL)
  AND (r.valid_from IS NULL OR r.valid_from <= datetime($valid_at)) AND (r.valid_to IS NULL OR r.valid_to > datetime($valid_at))
RETURN r.id AS id, type(r) AS type, a.id AS source, b.id AS target,
       [l IN labels(a) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0] AS source_label, a.name AS source_name,
       [l IN labels(b) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0] AS target_label, b.name AS target_name,
       properties(r) AS properties, r.pending IS NOT NULL AS pending
ORDER BY type, source, target, id
LIMIT toInteger($limit)
