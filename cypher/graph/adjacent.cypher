// The committed relationships of the given nodes of the project, with the node at the other end:
// the steps of a neighbourhood read as the graph knew it at a moment (known_at, docs/facts.md),
// which the caller filters with what the graph did not know then and valid time.
UNWIND $ids AS id
MATCH (a:Knowledge {id: id})-[r]-(n:Knowledge)
WHERE a.project_id = $project_id AND n.project_id = $project_id AND n <> a
  AND r.pending IS NULL AND NOT n:Pending
RETURN a.id AS from, r.id AS id, type(r) AS type, startNode(r).id AS source, endNode(r).id AS target,
       properties(r) AS props, n {.*, embedding: null} AS node, labels(n) AS labels
ORDER BY from, id
