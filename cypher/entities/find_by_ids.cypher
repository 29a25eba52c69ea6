// Committed entities of the project with the given ids.
UNWIND $ids AS id
MATCH (e:Entity:Knowledge {id: id})
USING INDEX e:Knowledge(id)
WHERE e.project_id = $project_id AND NOT e:Pending
RETURN e.id AS id, e.type AS type, e.name AS name
