// Ranked entities (entity plane): Lucene full-text over entity names, limited to the project's
// tenant token in the query itself; committed entities only, optionally of given types (labels).
CALL db.index.fulltext.queryNodes('entity_text', $lucene, {limit: toInteger($candidates)}) YIELD node, score
WHERE node.project_id = $project_id AND NOT node:Pending
  AND ($types IS NULL OR any(l IN labels(node) WHERE l IN $types))
RETURN node {.*, embedding: null} AS entity, labels(node) AS labels, score
ORDER BY score DESC, node.id
LIMIT toInteger($limit)
