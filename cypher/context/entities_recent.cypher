// Context candidates, entity plane, without a query: the most recent committed entities of the
// project created by $as_of, with the same type and shape filters.
// Read newest first in the order of the (project_id, created_at) index (hinted; ORDER BY names both of its
// properties), so it stops at the limit instead of reading and sorting every entity of the project; the
// tests are CASEs, since an OR may be planned as a union that loses the index's order.
MATCH (node:Entity)
USING INDEX SEEK node:Entity(project_id, created_at)
WHERE node.project_id = $project_id AND node.created_at IS NOT NULL AND NOT node:Pending
  AND CASE WHEN $as_of IS NULL THEN true ELSE node.created_at <= datetime($as_of) END
  AND ($types IS NULL OR any(l IN labels(node) WHERE l IN $types))
  AND ($shape_ids IS NULL OR node.shape_id IN $shape_ids)
RETURN node.id AS id, node.name AS name, coalesce(node.type, [l IN labels(node) WHERE NOT l IN ['Knowledge', 'Entity']][0], 'Entity') AS label,
       node.description AS text,
       CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END AS created_ms, 0.0 AS score
ORDER BY node.project_id DESC, node.created_at DESC, id
LIMIT toInteger($limit)
