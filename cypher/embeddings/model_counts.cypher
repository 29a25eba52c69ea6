// Nodes carrying a vector of the current model, of another model, and none (for /v1/status).
CALL () {
  MATCH (n:Memory) WHERE NOT n:Pending RETURN 'memory' AS kind, n
  UNION ALL
  MATCH (n:Chunk) WHERE NOT n:Pending RETURN 'chunk' AS kind, n
  UNION ALL
  MATCH (n:Entity) WHERE NOT n:Pending RETURN 'entity' AS kind, n
}
RETURN kind,
       count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
       count(CASE WHEN n.embedding_model IS NOT NULL AND n.embedding_model <> $model THEN 1 END) AS other,
       count(CASE WHEN n.embedding_model IS NULL THEN 1 END) AS none
