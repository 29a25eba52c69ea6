// The slice's subject: a committed entity of the project, by id or by normalized name (and label).
MATCH (e:Entity:Knowledge)
WHERE e.project_id = $project_id AND NOT e:Pending
  AND (($id IS NOT NULL AND e.id = $id)
       OR ($id IS NULL AND e.normalized_name = $normalized_name AND ($type IS NULL OR $type IN labels(e))))
RETURN e.id AS id, e.name AS name
ORDER BY e.id
LIMIT 1
