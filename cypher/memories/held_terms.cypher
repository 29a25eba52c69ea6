// A fragment of memories/walk_near (docs/recall.md, "Exact for small projects" and "Hops"), read once before
// search/nearest: `vector_index` ('term_embedding') and `held`, the project's terms with a vector of $model
// ({node, vector}) when it has at most $exact_up_to terms, to be compared exactly; null when it has more, and the
// index answers. The terms are memories/project_terms'.
CALL () {
  // include: memories/project_terms
  WITH collect(few) AS few
  RETURN 'term_embedding' AS vector_index,
         CASE WHEN size(few) <= $exact_up_to
           THEN [n IN few WHERE n.embedding_model = $model AND n.embedding IS NOT NULL | {node: n, vector: n.embedding}]
         END AS held
}
