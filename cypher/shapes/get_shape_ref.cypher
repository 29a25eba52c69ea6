// A shape visible to the project: a built-in one or one of the project's own.
MATCH (s:Shape {id: $id})
USING INDEX s:Shape(id)
WHERE (s.builtin = true OR s.project_id = $project_id) AND NOT s:Pending
RETURN s.id AS id, s.name AS name, s.version AS version, s.schema_tag AS schema_tag
