// Context candidates, memory plane: committed, recallable memories linked (any committed
// relationship) to the subject or an entity of its neighbourhood, nearest entity first, with the
// same kind, as_of and time-window rules as the ranked candidates. With known_at (docs/facts.md),
// none of $unknown; the validity of $changed memories (changed since) is judged by the caller on
// their values then.
UNWIND $entities AS e
MATCH (x:Entity:Knowledge {id: e.id})-[r]-(node:Memory)
USING INDEX x:Knowledge(id)
WHERE r.pending IS NULL AND NOT node:Pending AND node.project_id = $project_id
  AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
  AND NOT node.id IN $unknown AND NOT coalesce(r.id, '') IN $unknown
  AND (node.id IN $changed OR ((node.valid_from IS NULL OR node.valid_from <= datetime($valid_at))
    AND (node.valid_to IS NULL OR node.valid_to > datetime($valid_at))))
  AND (r.valid_from IS NULL OR r.valid_from <= datetime($valid_at))
  AND (r.valid_to IS NULL OR r.valid_to > datetime($valid_at))
  AND ($as_of IS NULL OR node.created_at <= datetime($as_of))
  AND ($kinds IS NULL OR node.kind IN $kinds)
  AND ($episode IS NULL OR node.episode = $episode)
WITH node, min(e.hops) AS hops, CASE WHEN $window_field = 'date_observed' AND node.date_observed IS NOT NULL
                                     THEN datetime({date: node.date_observed}) ELSE node.created_at END AS t
WHERE ($from IS NULL OR t >= datetime($from)) AND ($to IS NULL OR t <= datetime($to))
RETURN node.id AS id, node.name AS name, node.content AS text, node.kind AS kind,
       toString(node.date_observed) AS date_observed,
       CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END AS created_ms, hops
ORDER BY hops, created_ms DESC, id
LIMIT toInteger($limit)
