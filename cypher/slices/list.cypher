// The project's committed slices by name, newest version first, with an optional name filter and
// a keyset cursor (name, version, id).
// Sought by the (project_id, name) index (name IS NOT NULL: every slice has one), not a scan of every project's
// slices nor a seek of every node of the project.
MATCH (s:Slice:Knowledge)
USING INDEX SEEK s:Slice(project_id, name)
WHERE s.project_id = $project_id AND s.name IS NOT NULL AND NOT s:Pending
  AND ($name IS NULL OR s.name = $name)
  AND ($after_name IS NULL OR s.name > $after_name
       OR (s.name = $after_name AND (s.version < $after_version OR (s.version = $after_version AND s.id > $after_id))))
WITH s
ORDER BY s.name, s.version DESC, s.id
LIMIT toInteger($limit)
CALL (s) {
  OPTIONAL MATCH (newer:Slice)-[x:SUPERSEDES]->(s)
  WHERE x.pending IS NULL AND NOT newer:Pending
  RETURN newer.id AS superseded_by LIMIT 1
}
CALL (s) {
  OPTIONAL MATCH (s)-[x:SUPERSEDES]->(older:Slice)
  RETURN older.id AS supersedes LIMIT 1
}
RETURN properties(s) AS slice, false AS pending, superseded_by, supersedes
ORDER BY s.name, s.version DESC, s.id
