// A page of one node's relationships in the order of their source node's id, then their own id (after
// $after_source / $after_id: the order of every edges page, graph/edges): outgoing, incoming or both,
// of one type ($types = [type]) or any ($types null); committed only unless pending work is asked for;
// valid at $valid_at (as_of, else now; docs/facts.md). The other end is the relationship's, tested after the
// expansion, not a pattern node: no stale estimate can make the planner seek every node of the project for it.
CALL db.relationshipTypes() YIELD relationshipType
WITH coalesce($types, collect(relationshipType)) AS types
MATCH (x:Knowledge {id: $node_id})
USING INDEX x:Knowledge(id)
WHERE x.project_id = $project_id AND ($include_pending OR NOT x:Pending)
MATCH (x)-[r:$any(types)]-()
WITH DISTINCT x, r
WITH x, r, startNode(r) AS a, endNode(r) AS b
WITH x, r, a, b, CASE WHEN a = x THEN b ELSE a END AS o
WHERE o:Knowledge AND o.project_id = $project_id AND ($include_pending OR r.pending IS NULL)
  AND (r.valid_from IS NULL OR r.valid_from <= datetime($valid_at)) AND (r.valid_to IS NULL OR r.valid_to > datetime($valid_at))
  AND ((a = x AND $direction IN ['out', 'both']) OR (b = x AND $direction IN ['in', 'both']))
  AND CASE WHEN a.id = $after_source THEN r.id > $after_id ELSE a.id > $after_source END
RETURN r.id AS id, type(r) AS type, a.id AS source, b.id AS target,
       [l IN labels(a) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0] AS source_label, a.name AS source_name,
       [l IN labels(b) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0] AS target_label, b.name AS target_name,
       properties(r) AS properties, r.pending IS NOT NULL AS pending
ORDER BY source, id
LIMIT toInteger($limit)
