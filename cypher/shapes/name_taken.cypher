// A shape of this name the project already sees or has staged: a built-in one, or one of its own
// (committed or pending). Names identify a lineage of versions.
MATCH (s:Shape {name: $name})
WHERE s.builtin = true OR s.project_id = $project_id
RETURN s.id AS id, coalesce(s.builtin, false) AS builtin, s:Pending AS pending, s.delta_id AS delta_id
ORDER BY builtin DESC, pending, s.version DESC
LIMIT 1
