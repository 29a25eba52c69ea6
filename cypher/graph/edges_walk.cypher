// The page of graph/edges, read again with where its walk ends when graph/edges came back short (it walked $walk
// nodes, or every node left, without filling the page), and read alone for a page that starts where a cut walk
// stopped (src/graph/edgeWalk.ts): the same order, filters and plan (graph/edges says why each is so). The first
// subquery reads the ids of at most $walk nodes from the index: walked_to, the last of them, and cut_at, the
// first node not walked (null when none is left). The page reads only nodes up to walked_to, so a project of
// many nodes and few relationships answers a short page, even an empty one, with cut_at for the next to start
// at, instead of reading every node it has until the page fills. The walk's end is a key, not a count, so a node
// deleted while the page is read cannot move it past a node never walked. The page is in an OPTIONAL CALL: a
// walk that finds no relationship still answers one row, whose cut_at says whether more nodes follow. Reading
// the bounds costs an index entry a node walked (about 10 ms for 5,000), which is why a page that fills is read
// by graph/edges alone.
CALL db.relationshipTypes() YIELD relationshipType
WITH coalesce($types, collect(relationshipType)) AS types
CALL () {
  MATCH (w:Knowledge {project_id: $project_id})
  USING INDEX SEEK w:Knowledge(project_id, id)
  WHERE w.id >= $after_source
  WITH w ORDER BY w.project_id, w.id LIMIT toInteger($walk) + 1
  RETURN collect(w.id) AS walk
}
WITH types, walk[..toInteger($walk)][-1] AS walked_to, walk[toInteger($walk)] AS cut_at
OPTIONAL CALL (types, walked_to) {
  MATCH (a:Knowledge {project_id: $project_id})
  USING INDEX SEEK a:Knowledge(project_id, id)
  WHERE a.id >= $after_source AND a.id <= walked_to
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
  RETURN a, r, b
  ORDER BY a.project_id, a.id, r.id
  LIMIT toInteger($limit)
}
RETURN r.id AS id, type(r) AS type, a.id AS source, b.id AS target,
       [l IN labels(a) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0] AS source_label, a.name AS source_name,
       [l IN labels(b) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0] AS target_label, b.name AS target_name,
       properties(r) AS properties, r.pending IS NOT NULL AS pending, cut_at
ORDER BY source, id
