// Committed entities of the project with one of the given normalized names: resolution of memory
// subjects and objects, submissions and extracted entities (callers pick the type they need).
UNWIND $names AS name
MATCH (e:Entity {project_id: $project_id, normalized_name: name})
WHERE NOT e:Pending
RETURN name, e.id AS id, e.type AS type
ORDER BY name, e.created_at
