// Ranked recall: Lucene full-text over content and name, limited to the project's tenant token in
// the query itself; then committed and still-recallable memories valid at $valid_at (as_of, else now; docs/facts.md) only.
CALL db.index.fulltext.queryNodes('memory_text', $lucene, {limit: toInteger($candidates)}) YIELD node, score
WHERE node.project_id = $project_id AND NOT node:Pending
  AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
  AND (node.valid_from IS NULL OR node.valid_from <= datetime($valid_at))
  AND (node.valid_to IS NULL OR node.valid_to > datetime($valid_at))
  AND ($kinds IS NULL OR node.kind IN $kinds)
RETURN node {.*, embedding: null} AS memory, score
ORDER BY score DESC, node.id
LIMIT toInteger($limit)
