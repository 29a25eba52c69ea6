// The newest version of the same lineage above the given one, committed or staged: a new version
// may only be published from the latest.
MATCH (n:Slice:Knowledge {project_id: $project_id, name: $name})
USING INDEX SEEK n:Slice(project_id, name)
WHERE n.version > $version
RETURN n.id AS id, n.version AS version, n:Pending AS pending, n.delta_id AS delta_id
ORDER BY n.version DESC
LIMIT 1
