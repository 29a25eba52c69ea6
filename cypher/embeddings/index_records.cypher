// The model each vector index serves (one :EmbeddingIndex record per index).
MATCH (i:EmbeddingIndex)
RETURN i.name AS name, i.model AS model, i.dimensions AS dimensions
ORDER BY name
