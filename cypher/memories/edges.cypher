// Committed relationships among and around the given memories (subject, object and any other).
UNWIND $ids AS id
MATCH (m:Knowledge {id: id})-[r]-(o:Knowledge)
WHERE r.pending IS NULL AND NOT o:Pending AND o.project_id = m.project_id
WITH DISTINCT r, startNode(r) AS a, endNode(r) AS b
RETURN r.id AS id, type(r) AS type, a.id AS source, b.id AS target,
       [l IN labels(a) WHERE NOT l IN ['Knowledge']][0] AS source_label, a.name AS source_name,
       [l IN labels(b) WHERE NOT l IN ['Knowledge']][0] AS target_label, b.name AS target_name,
       properties(r) AS properties
ORDER BY type, source, target, id
