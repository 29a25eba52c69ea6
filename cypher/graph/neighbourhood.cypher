// The nodes around one node, nearest first: its neighbours (distance 1), then theirs (distance 2)
// when depth is 2, in id order within each distance. At most $limit + 1 of each distance come
// back, so the caller can cut at $limit and say whether it cut. Only nodes of the project: engine
// records (deltas, change records) are not :Knowledge and never appear. Relationships and nodes
// valid at $valid_at only (as_of, else now; docs/facts.md).
// `embedding: null`, `context_embedding: null`: vectors (384 numbers each, hidden from every view) are not sent
// (docs/embeddings.md).
MATCH (c:Knowledge {id: $id})
USING INDEX c:Knowledge(id)
WHERE c.project_id = $project_id AND ($include_pending OR NOT c:Pending)
// Neighbours are expanded from the node: their label is tested as a value ('Knowledge' IN labels(n)), not as a
// label predicate, which would let the planner seek every node of the project by the Knowledge index instead.
CALL (c) {
  MATCH (c)-[r]-(n)
  WHERE 'Knowledge' IN labels(n) AND n.project_id = $project_id AND n <> c
    AND ($include_pending OR (r.pending IS NULL AND NOT n:Pending))
    AND (r.valid_from IS NULL OR r.valid_from <= datetime($valid_at)) AND (r.valid_to IS NULL OR r.valid_to > datetime($valid_at))
    AND (n.valid_from IS NULL OR n.valid_from <= datetime($valid_at)) AND (n.valid_to IS NULL OR n.valid_to > datetime($valid_at))
  WITH DISTINCT n
  ORDER BY n.id
  LIMIT toInteger($limit + 1)
  RETURN collect(n) AS first
}
CALL (c, first) {
  UNWIND (CASE WHEN $depth >= 2 AND size(first) <= $limit THEN first ELSE [] END) AS m
  MATCH (m)-[r]-(n)
  WHERE 'Knowledge' IN labels(n) AND n.project_id = $project_id AND n <> c AND NOT n IN first
    AND ($include_pending OR (r.pending IS NULL AND NOT n:Pending))
    AND (r.valid_from IS NULL OR r.valid_from <= datetime($valid_at)) AND (r.valid_to IS NULL OR r.valid_to > datetime($valid_at))
    AND (n.valid_from IS NULL OR n.valid_from <= datetime($valid_at)) AND (n.valid_to IS NULL OR n.valid_to > datetime($valid_at))
  WITH DISTINCT n
  ORDER BY n.id
  LIMIT toInteger($limit + 1)
  RETURN collect(n) AS second
}
UNWIND [x IN first | {node: x, distance: 1}] + [x IN second | {node: x, distance: 2}] AS hit
WITH hit.node AS n, hit.distance AS distance
RETURN n {.*, embedding: null, context_embedding: null} AS props, labels(n) AS labels, n:Pending AS pending, distance
