// Committed collections of the project with the given normalized names, so a tag reuses its
// collection instead of creating a second one.
UNWIND $names AS name
MATCH (c:Collection:Knowledge)
USING INDEX SEEK c:Collection(project_id, normalized_name)
WHERE c.project_id = $project_id AND c.normalized_name = name AND NOT c:Pending
RETURN c.id AS id, c.name AS name, c.normalized_name AS normalized_name
