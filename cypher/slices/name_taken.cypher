// A slice of this name the project already has, committed or staged: a name is one lineage of versions.
MATCH (s:Slice:Knowledge {project_id: $project_id, name: $name})
USING INDEX SEEK s:Slice(project_id, name)
RETURN s.id AS id, s:Pending AS pending, s.delta_id AS delta_id
ORDER BY pending, s.version DESC
LIMIT 1
