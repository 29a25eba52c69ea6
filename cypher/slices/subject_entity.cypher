// The committed entity a slice is to focus on, when its subject is given by id.
MATCH (e:Entity:Knowledge {id: $id})
USING INDEX e:Knowledge(id)
WHERE e.project_id = $project_id AND NOT e:Pending
RETURN e.id AS id, e.name AS name
