// Committed entities of the project matching extracted entities by type and normalised name.
UNWIND $keys AS key
MATCH (e:Entity {project_id: $project_id, normalized_name: key.name})
WHERE NOT e:Pending AND e.type = key.type
RETURN key.type AS type, key.name AS name, e.id AS id
