// Context candidates around the subject: committed entities of the project within $hops (0–2)
// entity-to-entity hops over committed relationships of the allowed types (all when null),
// nearest first; the entity filters and as_of apply (the subject itself is distance 0). Only
// relationships valid at $valid_at (as_of, else now; docs/facts.md) are walked, and none of
// $unknown (what the graph did not know at known_at; empty without it).
MATCH (s:Entity:Knowledge {id: $subject_id})
USING INDEX s:Knowledge(id)
WHERE s.project_id = $project_id AND NOT s:Pending
MATCH p = (s)-[rels*0..2]-(node:Entity)
WHERE length(p) <= $hops
  AND all(r IN rels WHERE r.pending IS NULL AND ($relationship_types IS NULL OR type(r) IN $relationship_types)
              AND NOT coalesce(r.id, '') IN $unknown
              AND (r.valid_from IS NULL OR r.valid_from <= datetime($valid_at))
              AND (r.valid_to IS NULL OR r.valid_to > datetime($valid_at)))
  AND all(x IN nodes(p) WHERE x:Entity AND NOT x:Pending AND x.project_id = $project_id AND NOT x.id IN $unknown)
WITH node, min(length(p)) AS hops
WHERE ($as_of IS NULL OR node.created_at <= datetime($as_of))
  AND ($types IS NULL OR any(l IN labels(node) WHERE l IN $types))
  AND ($shape_ids IS NULL OR node.shape_id IN $shape_ids)
RETURN node.id AS id, node.name AS name, coalesce(node.type, [l IN labels(node) WHERE NOT l IN ['Knowledge', 'Entity']][0], 'Entity') AS label,
       node.description AS text,
       CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END AS created_ms, hops
ORDER BY hops, id
LIMIT toInteger($limit)
