// A page of the project's relationships in the order of their source node's id, then their own id
// (after $after_source / $after_id), of one type ($types = [type]) or of any ($types null: every type
// the database knows); committed only unless pending work is asked for; valid at $valid_at (as_of,
// else now; docs/facts.md). The project's nodes are read in the order of their (project_id, id) index
// and their outgoing relationships sorted within each node (PartialTop), so a page reads until it is
// full and no further: no index spans relationships of every type, and ordering by the relationship's
// id alone read every relationship of the database for each page. The valid-time and cursor tests are
// CASEs, not ORs, which the planner may split into a union that loses the index order. Nothing is left
// to the planner's estimates, which are stale after a bulk write (a plan made then is cached and used
// as the graph grows): the index is sought (USING INDEX SEEK, not a scan of every project's nodes); each
// node's relationships are read in a subquery of that node, whose own LIMIT keeps it from being inlined;
// and the far end is the relationship's end node, not a pattern node an index could find (a seek of every
// node of the project for each node was one such plan).
// A page walks at most $walk nodes. One that comes back short, having walked them or every node left, is
// read again by graph/edges_walk, which says where the walk ended (a project of many nodes and few
// relationships read every node it had for each page before).
CALL db.relationshipTypes() YIELD relationshipType
WITH coalesce($types, collect(relationshipType)) AS types
MATCH (a:Knowledge {project_id: $project_id})
USING INDEX SEEK a:Knowledge(project_id, id)
WHERE a.id >= $after_source
WITH a, types ORDER BY a.project_id, a.id LIMIT toInteger($walk)
CALL (a, types) {
  MATCH (a)-[r:$any(types)]->()
  WITH r, endNode(r) AS b
  WHERE b:Knowledge AND b.project_id = $project_id
    AND CASE WHEN a.id = $after_source THEN r.id > $after_id ELSE true END
    AND ($include_pending OR r.pending IS NULL)
    AND CASE WHEN r.valid_from IS NULL THEN true ELSE r.valid_from <= datetime($valid_at) END
    AND CASE WHEN r.valid_to IS NULL THEN true ELSE r.valid_to > datetime($valid_at) END
  WITH r, b ORDER BY r.id LIMIT toInteger($limit)
  RETURN r, b
}
RETURN r.id AS id, type(r) AS type, a.id AS source, b.id AS target,
       [l IN labels(a) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0] AS source_label, a.name AS source_name,
       [l IN labels(b) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0] AS target_label, b.name AS target_name,
       properties(r) AS properties, r.pending IS NOT NULL AS pending
ORDER BY a.project_id, a.id, r.id
LIMIT toInteger($limit)
