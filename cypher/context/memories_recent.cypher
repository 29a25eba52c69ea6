// Context candidates, memory plane, without a query: the most recent committed, recallable
// memories of the project created by $as_of, of the slice's kinds and inside its time window.
MATCH (node:Memory)
WHERE node.project_id = $project_id AND node.created_at IS NOT NULL AND NOT node:Pending
  AND ($as_of IS NULL OR node.created_at <= datetime($as_of))
  AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
  AND (node.valid_from IS NULL OR node.valid_from <= datetime($valid_at))
  AND (node.valid_to IS NULL OR node.valid_to > datetime($valid_at))
  AND ($kinds IS NULL OR node.kind IN $kinds)
WITH node, CASE WHEN $window_field = 'date_observed' AND node.date_observed IS NOT NULL
                THEN datetime({date: node.date_observed}) ELSE node.created_at END AS t
WHERE ($from IS NULL OR t >= datetime($from)) AND ($to IS NULL OR t <= datetime($to))
RETURN node.id AS id, node.name AS name, node.content AS text, node.kind AS kind,
       toString(node.date_observed) AS date_observed,
       CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END AS created_ms, 0.0 AS score
ORDER BY node.created_at DESC, id
LIMIT toInteger($limit)
