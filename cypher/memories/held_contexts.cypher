// A fragment of memories/context_vector (docs/recall.md, "Exact for small projects" and "Context"), read once before
// search/nearest: `vector_index` ('memory_context_embedding') and `held`, the project's memories with a context
// vector of $model ({node, vector}) when it holds at most $exact_up_to memories, to be compared exactly; null when it
// holds more, and the index answers.
CALL () {
  MATCH (few:Memory) USING INDEX few:Memory(project_id, created_at)
  WHERE few.project_id = $project_id AND few.created_at IS NOT NULL
  WITH few LIMIT toInteger($exact_up_to) + 1
  WITH collect(few) AS few
  RETURN 'memory_context_embedding' AS vector_index,
         CASE WHEN size(few) <= $exact_up_to
           THEN [n IN few WHERE n.embedding_model = $model AND n.context_embedding IS NOT NULL
                 | {node: n, vector: n.context_embedding}]
         END AS held
}
