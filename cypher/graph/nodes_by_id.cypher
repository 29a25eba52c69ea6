// Committed nodes of the project by id, without their vectors: the ends of relationships a read as
// of a moment (known_at, docs/facts.md) puts back.
UNWIND $ids AS id
MATCH (n:Knowledge {id: id})
USING INDEX n:Knowledge(id)
WHERE n.project_id = $project_id AND NOT n:Pending
RETURN n {.*, embedding: null, context_embedding: null} AS props, labels(n) AS labels
