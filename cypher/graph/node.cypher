// One node of the project by id (pending ones only when asked for).
MATCH (n:Knowledge {id: $id})
WHERE n.project_id = $project_id AND ($include_pending OR NOT n:Pending)
RETURN properties(n) AS props, labels(n) AS labels, n:Pending AS pending
