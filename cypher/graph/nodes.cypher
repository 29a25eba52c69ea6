// A page of the project's nodes in id order: optionally of one label ($labels is ['Knowledge'] or
// ['Knowledge', label]), with one property equal to a value (as text, or as a number when the
// value reads as one; list properties match when any element does), committed only unless
// pending work is asked for; facts valid at $valid_at only (as_of, else now; docs/facts.md).
// `embedding: null`, `context_embedding: null`: vectors (384 numbers each, hidden from every view) are not sent
// (docs/embeddings.md).
// Read in the order of the (project_id, id) index, so a page reads its own nodes (and those its filters pass
// over), not every node of the project: ORDER BY names both of the index's properties, and the validity
// tests are CASEs, since an OR there was planned as a union of two seeks, which loses the index's order.
// The index is hinted, so that a plan made while the graph was small (a seek of every node of the
// project, then a sort) is not the one cached as it grows.
MATCH (n:Knowledge {project_id: $project_id})
USING INDEX SEEK n:Knowledge(project_id, id)
WHERE n.id > $after_id
MATCH (n:$all($labels))
WHERE ($include_pending OR NOT n:Pending)
  AND CASE WHEN n.valid_from IS NULL THEN true ELSE n.valid_from <= datetime($valid_at) END
  AND CASE WHEN n.valid_to IS NULL THEN true ELSE n.valid_to > datetime($valid_at) END
  AND ($property IS NULL OR
       CASE WHEN valueType(n[$property]) STARTS WITH 'LIST'
            THEN any(x IN n[$property] WHERE toStringOrNull(x) = $value OR x = toFloatOrNull($value))
            ELSE toStringOrNull(n[$property]) = $value OR n[$property] = toFloatOrNull($value) END)
RETURN n {.*, embedding: null, context_embedding: null} AS props, labels(n) AS labels, n:Pending AS pending
ORDER BY n.project_id, n.id
LIMIT toInteger($limit)
