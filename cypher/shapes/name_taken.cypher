// A shape of this name the project already sees or has staged: a built-in one, or one of its own
// (committed or pending). Names identify a lineage of versions.
// The built-in ones by id and the project's by the (project_id, name) index, not a scan of every project's.
CALL () {
  MATCH (s:Shape) WHERE s.id IN $builtin_ids AND s.builtin = true AND s.name = $name
  RETURN s
  UNION
  MATCH (s:Shape) USING INDEX SEEK s:Shape(project_id, name) WHERE s.project_id = $project_id AND s.name = $name
  RETURN s
}
RETURN s.id AS id, coalesce(s.builtin, false) AS builtin, s:Pending AS pending, s.delta_id AS delta_id
ORDER BY builtin DESC, pending, s.version DESC
LIMIT 1
