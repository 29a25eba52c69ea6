// hydrate: committed entities whose name matches the goal.
CALL db.index.fulltext.queryNodes('entity_text', $lucene, {limit: toInteger($limit)}) YIELD node, score
WHERE node.project_id = $project_id AND NOT node:Pending
RETURN node.id AS id, 'entity' AS plane, score, node.name AS text
ORDER BY score DESC, id
