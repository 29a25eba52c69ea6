// A fragment of the vector statements (docs/recall.md, "Exact for small projects"): the $k entities nearest
// `question` (a vector in scope), as rows (node, score), score being the vector index's (1 + cos) / 2.
// A project holding at most $exact_up_to entities is read exactly: each of its entities with a vector of $model is
// compared with the question (vector.similarity.cosine scores as the index does), so its neighbours are the
// true ones and the same for the same graph. The index spans every project and is approximate: its answer
// moves as writes in other projects merge its segments. A larger project asks the index, whose neighbours
// the statement filters to the project.
CALL (question) {
  MATCH (few:Entity) USING INDEX few:Entity(project_id, created_at)
  WHERE few.project_id = $project_id AND few.created_at IS NOT NULL
  WITH few LIMIT toInteger($exact_up_to) + 1
  RETURN count(few) AS held
}
CALL (question, held) {
  WITH question WHERE held <= $exact_up_to
  MATCH (node:Entity) USING INDEX node:Entity(project_id, created_at)
  WHERE node.project_id = $project_id AND node.created_at IS NOT NULL AND node.embedding_model = $model
  WITH node, vector.similarity.cosine(node.embedding, question) AS score
  WHERE score IS NOT NULL
  RETURN node, score ORDER BY score DESC, node.id LIMIT toInteger($k)
  UNION ALL
  WITH question WHERE held > $exact_up_to
  CALL db.index.vector.queryNodes('entity_embedding', toInteger($k), question) YIELD node, score
  RETURN node, score
}
