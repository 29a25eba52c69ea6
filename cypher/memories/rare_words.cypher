// The question's rare words (docs/recall.md, "Precision"): for each of $words ({word, lucene}: a content word of the
// question and its full-text query, required to carry the project's tenant token), how many memories of the project
// hold it (`held`, counted up to $rare + 1; staged ones count) and, when at most $rare do, the committed, recallable
// memories valid at $valid_at among them. Such a word names something the project barely mentions (or, held by none,
// something it does not know).
UNWIND $words AS w
CALL (w) {
  CALL db.index.fulltext.queryNodes('memory_text', w.lucene, {limit: toInteger($rare) + 1}) YIELD node
  RETURN collect(node) AS nodes
}
WITH w, nodes, size(nodes) AS held
CALL (nodes, held) {
  UNWIND CASE WHEN held <= $rare THEN nodes ELSE [] END AS node
  WITH node
  WHERE node.project_id = $project_id AND NOT node:Pending
    AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
    AND (node.valid_from IS NULL OR node.valid_from <= datetime($valid_at))
    AND (node.valid_to IS NULL OR node.valid_to > datetime($valid_at))
    AND ($kinds IS NULL OR node.kind IN $kinds)
    AND ($episode IS NULL OR node.episode = $episode)
  RETURN collect({id: node.id, memory: node {.id, .name, .content},
                  links:
// include: memories/candidate_links
                 }) AS hits
}
RETURN w.word AS word, held, hits
