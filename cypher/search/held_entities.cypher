// A fragment of the vector statements (docs/recall.md, "Exact for small projects"), read once per statement
// before search/nearest: `vector_index` ('entity_embedding'), and `held`, the project's entities with a vector of $model
// ({node, vector}) when it holds at most $exact_up_to entities, to be compared exactly; null when it holds more,
// and the index answers.
CALL () {
  MATCH (few:Entity) USING INDEX few:Entity(project_id, created_at)
  WHERE few.project_id = $project_id AND few.created_at IS NOT NULL
  WITH few LIMIT toInteger($exact_up_to) + 1
  WITH collect(few) AS few
  RETURN 'entity_embedding' AS vector_index,
         CASE WHEN size(few) <= $exact_up_to
           THEN [n IN few WHERE n.embedding_model = $model AND n.embedding IS NOT NULL | {node: n, vector: n.embedding}]
         END AS held
}
