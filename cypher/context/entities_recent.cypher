// Context candidates, entity plane, without a query: the most recent committed entities of the
// project created by $as_of, with the same type and shape filters.
MATCH (node:Entity)
WHERE node.project_id = $project_id AND node.created_at IS NOT NULL AND NOT node:Pending
  AND ($as_of IS NULL OR node.created_at <= datetime($as_of))
  AND ($types IS NULL OR any(l IN labels(node) WHERE l IN $types))
  AND ($shape_ids IS NULL OR node.shape_id IN $shape_ids)
RETURN node.id AS id, node.name AS name, coalesce(node.type, [l IN labels(node) WHERE NOT l IN ['Knowledge', 'Entity']][0], 'Entity') AS label,
       node.description AS text,
       CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END AS created_ms, 0.0 AS score
ORDER BY node.created_at DESC, id
LIMIT toInteger($limit)
