// The model each vector index serves (one :EmbeddingIndex record per index): recorded on first
// start, kept while the model stays, changed by a completed re-embedding. Returns the recorded one.
UNWIND $names AS name
MERGE (i:EmbeddingIndex {name: name})
ON CREATE SET i.model = $model, i.dimensions = $dimensions, i.updated_at = datetime()
RETURN i.name AS name, i.model AS model, i.dimensions AS dimensions
