// The committed relationships of the given nodes of the project, with the node at the other end:
// the steps of a neighbourhood read as the graph knew it at a moment (known_at, docs/facts.md),
// which the caller filters with what the graph did not know then and valid time. $types (null: all)
// and $entities_only narrow the walk to what a context compile's hops follow (entity to entity).
UNWIND $ids AS id
MATCH (a:Knowledge {id: id})-[r]-(n:Knowledge)
USING INDEX a:Knowledge(id)
WHERE a.project_id = $project_id AND n.project_id = $project_id AND n <> a
  AND r.pending IS NULL AND NOT n:Pending
  AND ($types IS NULL OR type(r) IN $types)
  AND (NOT $entities_only OR (a:Entity AND n:Entity))
RETURN a.id AS from, r.id AS id, type(r) AS type, startNode(r).id AS source, endNode(r).id AS target,
       properties(r) AS props, n {.*, embedding: null, context_embedding: null} AS node, labels(n) AS labels
ORDER BY from, id
