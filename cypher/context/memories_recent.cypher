// Context candidates, memory plane, without a query: the most recent committed, recallable
// memories of the project created by $as_of, of the slice's kinds and inside its time window.
// Read newest first in the order of the (project_id, created_at) index (hinted; ORDER BY names both of its
// properties), so it stops at the limit instead of reading and sorting every memory of the project; the
// tests are CASEs, since an OR may be planned as a union that loses the index's order.
MATCH (node:Memory)
USING INDEX SEEK node:Memory(project_id, created_at)
WHERE node.project_id = $project_id AND node.created_at IS NOT NULL AND NOT node:Pending
  AND CASE WHEN $as_of IS NULL THEN true ELSE node.created_at <= datetime($as_of) END
  AND CASE WHEN node.forget_after IS NULL THEN true ELSE node.forget_after > datetime($now) END
  AND CASE WHEN node.valid_from IS NULL THEN true ELSE node.valid_from <= datetime($valid_at) END
  AND CASE WHEN node.valid_to IS NULL THEN true ELSE node.valid_to > datetime($valid_at) END
  AND ($kinds IS NULL OR node.kind IN $kinds)
  AND ($episode IS NULL OR node.episode = $episode)
WITH node, CASE WHEN $window_field = 'date_observed' AND node.date_observed IS NOT NULL
                THEN datetime({date: node.date_observed}) ELSE node.created_at END AS t
WHERE CASE WHEN $from IS NULL THEN true ELSE t >= datetime($from) END
  AND CASE WHEN $to IS NULL THEN true ELSE t <= datetime($to) END
RETURN node.id AS id, node.name AS name, node.content AS text, node.kind AS kind,
       toString(node.date_observed) AS date_observed,
       CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END AS created_ms, 0.0 AS score
ORDER BY node.project_id DESC, node.created_at DESC, id
LIMIT toInteger($limit)
