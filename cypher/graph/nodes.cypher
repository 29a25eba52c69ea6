// A page of the project's nodes in id order: optionally of one label ($labels is ['Knowledge'] or
// ['Knowledge', label]), with one property equal to a value (as text, or as a number when the
// value reads as one; list properties match when any element does), committed only unless
// pending work is asked for; facts valid at $valid_at only (as_of, else now; docs/facts.md).
// `embedding: null`: a node's vector (384 numbers, hidden from every view) is not sent (docs/embeddings.md).
MATCH (n:Knowledge {project_id: $project_id})
MATCH (n:$all($labels))
WHERE n.id > $after_id
  AND ($include_pending OR NOT n:Pending)
  AND (n.valid_from IS NULL OR n.valid_from <= datetime($valid_at)) AND (n.valid_to IS NULL OR n.valid_to > datetime($valid_at))
  AND ($property IS NULL OR
       CASE WHEN valueType(n[$property]) STARTS WITH 'LIST'
            THEN any(x IN n[$property] WHERE toStringOrNull(x) = $value OR x = toFloatOrNull($value))
            ELSE toStringOrNull(n[$property]) = $value OR n[$property] = toFloatOrNull($value) END)
RETURN n {.*, embedding: null} AS props, labels(n) AS labels, n:Pending AS pending
ORDER BY n.id
LIMIT toInteger($limit)
