// Ranked recall: Lucene full-text over content and name, limited to the project's tenant token in
// the query itself; then committed and still-recallable memories only.
CALL db.index.fulltext.queryNodes('memory_text', $lucene, {limit: toInteger($candidates)}) YIELD node, score
WHERE node.project_id = $project_id AND NOT node:Pending
  AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
  AND ($kinds IS NULL OR node.kind IN $kinds)
RETURN node {.*, embedding: null} AS memory, score
ORDER BY score DESC, node.id
LIMIT toInteger($limit)
