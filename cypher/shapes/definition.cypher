// One shape visible to the project (built-in, or the project's own and committed) with its full
// definition: entity types with their properties, relationship types, and its version links.
MATCH (s:Shape {id: $id})
USING INDEX s:Shape(id)
WHERE (s.builtin = true OR s.project_id = $project_id) AND NOT s:Pending
CALL (s) {
  OPTIONAL MATCH (s)-[d:DEFINES]->(t:EntityType)
  WHERE d.pending IS NULL AND NOT t:Pending
  CALL (t) {
    OPTIONAL MATCH (t)-[h:HAS_PROPERTY]->(p:PropertyDef)
    WHERE h.pending IS NULL AND NOT p:Pending
    WITH p ORDER BY p.position, p.name
    RETURN collect(properties(p)) AS props
  }
  WITH t, props ORDER BY t.position, t.label
  RETURN collect(CASE WHEN t IS NULL THEN null ELSE {type: properties(t), properties: props} END) AS entity_types
}
CALL (s) {
  OPTIONAL MATCH (s)-[d:DEFINES]->(r:RelationshipType)
  WHERE d.pending IS NULL AND NOT r:Pending
  WITH r ORDER BY r.position, r.type
  RETURN collect(properties(r)) AS relationship_types
}
CALL (s) {
  OPTIONAL MATCH (newer:Shape)-[x:SUPERSEDES]->(s)
  WHERE x.pending IS NULL AND NOT newer:Pending
  RETURN newer.id AS superseded_by LIMIT 1
}
CALL (s) {
  OPTIONAL MATCH (s)-[x:SUPERSEDES]->(older:Shape)
  WHERE x.pending IS NULL
  RETURN older.id AS supersedes LIMIT 1
}
RETURN properties(s) AS shape, entity_types, relationship_types, superseded_by, supersedes
