// A completed re-embedding: every vector index now serves $model.
MATCH (i:EmbeddingIndex)
SET i.model = $model, i.dimensions = $dimensions, i.updated_at = datetime()
RETURN count(i) AS updated
