// hydrate: committed, recallable memories matching the goal.
CALL db.index.fulltext.queryNodes('memory_text', $lucene, {limit: toInteger($limit)}) YIELD node, score
WHERE node.project_id = $project_id AND NOT node:Pending
  AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
RETURN node.id AS id, 'memory' AS plane, score, node.content AS text
ORDER BY score DESC, id
