// One node of the project by id (pending ones only when asked for).
// `embedding: null`, `context_embedding: null`: vectors (384 numbers each, hidden from every view) are not sent
// (docs/embeddings.md).
MATCH (n:Knowledge {id: $id})
USING INDEX n:Knowledge(id)
WHERE n.project_id = $project_id AND ($include_pending OR NOT n:Pending)
RETURN n {.*, embedding: null, context_embedding: null} AS props, labels(n) AS labels, n:Pending AS pending
