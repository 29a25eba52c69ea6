// Shapes visible to the project: the built-in ones and the project's committed ones, by name and
// newest version first, with an optional name/status filter, latest-only switch and keyset cursor.
// The built-in ones by id and the project's by the (project_id, name) index: a filter of builtin OR project
// would read every project's shapes.
CALL () {
  MATCH (s:Shape) WHERE s.id IN $builtin_ids AND s.builtin = true
  RETURN s
  UNION
  // name IS NOT NULL (every shape has one) lets the planner seek the (project_id, name) index.
  MATCH (s:Shape) USING INDEX SEEK s:Shape(project_id, name)
  WHERE s.project_id = $project_id AND s.name IS NOT NULL AND NOT s:Pending
  RETURN s
}
WITH s WHERE ($name IS NULL OR s.name = $name)
  AND ($status IS NULL OR s.status = $status)
  AND ($after_name IS NULL OR s.name > $after_name
       OR (s.name = $after_name AND (s.version < $after_version OR (s.version = $after_version AND s.id > $after_id))))
OPTIONAL MATCH (newer:Shape)-[x:SUPERSEDES]->(s)
WHERE x.pending IS NULL AND NOT newer:Pending
WITH s, head(collect(newer.id)) AS superseded_by
WHERE NOT $latest OR superseded_by IS NULL
WITH s, superseded_by
ORDER BY s.name, s.version DESC, s.id
LIMIT toInteger($limit)
CALL (s) {
  OPTIONAL MATCH (s)-[d:DEFINES]->(t:EntityType)
  WHERE d.pending IS NULL
  WITH t ORDER BY t.position, t.label
  RETURN collect(t.label) AS labels
}
CALL (s) {
  OPTIONAL MATCH (s)-[d:DEFINES]->(r:RelationshipType)
  WHERE d.pending IS NULL
  WITH r ORDER BY r.position, r.type
  RETURN collect(DISTINCT r.type) AS types
}
RETURN properties(s) AS shape, superseded_by, labels, types
ORDER BY s.name, s.version DESC, s.id
