// A fragment of the vector statements (docs/recall.md, "Exact for small projects"): the $k nodes nearest
// `question` (a vector in scope), as rows (node, score), score being the vector index's (1 + cos) / 2, after
// search/held_memories, held_chunks or held_entities gave `vector_index` and `held`. A project's nodes held
// (it has at most $exact_up_to of the plane) are each compared with the question (vector.similarity.cosine
// scores as the index does), so its neighbours are the true ones and the same for the same graph. The index
// spans every project and is approximate: its answer moves as writes in other projects merge its segments.
// A larger project asks the index, whose neighbours the statement filters to the project.
CALL (question, held, vector_index) {
  WITH question, held WHERE held IS NOT NULL
  UNWIND held AS h
  WITH h.node AS node, vector.similarity.cosine(h.vector, question) AS score
  RETURN node, score ORDER BY score DESC, node.id LIMIT toInteger($k)
  UNION ALL
  WITH question, vector_index WHERE held IS NULL
  CALL db.index.vector.queryNodes(vector_index, toInteger($k), question) YIELD node, score
  RETURN node, score
}
