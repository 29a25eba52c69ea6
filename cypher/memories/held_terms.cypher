// A fragment of memories/near_terms (docs/recall.md, "Exact for small projects" and "Hops"), read once before
// search/nearest: `vector_index` ('term_embedding') and `held`, the project's terms with a vector of $model
// ({node, vector}) when it has at most $exact_up_to terms, to be compared exactly; null when it has more, and the
// index answers. The terms are found by their (project_id, key) index (term_key): the key's IS NOT NULL lets the
// composite index seek on the project alone; without it every term of every project was scanned.
CALL () {
  MATCH (few:Term) USING INDEX few:Term(project_id, key)
  WHERE few.project_id = $project_id AND few.key IS NOT NULL
  WITH few LIMIT toInteger($exact_up_to) + 1
  WITH collect(few) AS few
  RETURN 'term_embedding' AS vector_index,
         CASE WHEN size(few) <= $exact_up_to
           THEN [n IN few WHERE n.embedding_model = $model AND n.embedding IS NOT NULL | {node: n, vector: n.embedding}]
         END AS held
}
