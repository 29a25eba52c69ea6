// Check: shape_relationship_collisions (warning).
// A relationship type the delta defines whose name another committed shape visible to the project
// uses between other labels or with another cardinality: one relationship type, two meanings.
// Earlier versions of the same shape (same name) do not count.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:CREATED]->(r:RelationshipType)
USING INDEX d:Delta(id)
MATCH (s:Shape {id: r.shape_id})
USING INDEX s:Shape(id)
MATCH (o:RelationshipType {type: r.type})<-[:DEFINES]-(other:Shape)
USING INDEX o:RelationshipType(type)
WHERE NOT o:Pending AND NOT other:Pending AND other.name <> s.name
  AND (other.builtin = true OR other.project_id = $project_id) AND coalesce(other.status, 'published') <> 'retired'
  AND (o.from <> r.from OR o.to <> r.to OR o.cardinality <> r.cardinality)
  AND NOT EXISTS { MATCH (other)-[:DEFINES]->(same:RelationshipType {type: r.type, from: r.from, to: r.to, cardinality: r.cardinality}) WHERE NOT same:Pending }
WITH r, s, other, collect(o.from + '-[' + o.type + ']->' + o.to + ' ' + o.cardinality) AS theirs
RETURN 'shape_relationship_collisions' AS check, 'warning' AS severity,
       'Shape ' + s.name + ' defines ' + r.from + '-[' + r.type + ']->' + r.to + ' (' + r.cardinality + '), but shape ' + other.name +
       ' uses ' + r.type + ' as ' + reduce(t = '', x IN theirs | t + CASE WHEN t = '' THEN '' ELSE ', ' END + x) +
       '. Rename one, or align them.' AS message,
       [r.id, s.id, other.id] AS node_ids, [] AS relationship_ids,
       {rule: 'relationship_type_collision', relationship_type: r.type, shape_id: s.id, other_shape_id: other.id, other_definitions: theirs} AS evidence
