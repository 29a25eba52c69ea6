// Check: shape_relationship_collisions (warning).
// A relationship type the delta defines whose name another committed shape visible to the project
// uses between other labels or with another cardinality: one relationship type, two meanings.
// Earlier versions of the same shape (same name) do not count. effect: when the version this one
// supersedes (committed, not retired) already defined the type the same way (ends, cardinality),
// the collision held before the delta: touches (not counted toward the disposition); when it
// defined the type otherwise and also collided, worsens; else introduces.
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
USING INDEX SEEK o:RelationshipType(type)
WHERE NOT o:Pending AND NOT other:Pending AND other.name <> s.name
  AND (other.builtin = true OR other.project_id = $project_id) AND coalesce(other.status, 'published') <> 'retired'
  AND (o.from <> r.from OR o.to <> r.to OR o.cardinality <> r.cardinality)
  AND NOT EXISTS { MATCH (other)-[:DEFINES]->(same:RelationshipType {type: r.type, from: r.from, to: r.to, cardinality: r.cardinality}) WHERE NOT same:Pending }
WITH r, s, other, collect(o.from + '-[' + o.type + ']->' + o.to + ' ' + o.cardinality) AS theirs
CALL (r, s) {
  OPTIONAL MATCH (s)-[:SUPERSEDES]->(prev:Shape)-[:DEFINES]->(pr:RelationshipType {type: r.type})
  WHERE NOT prev:Pending AND NOT pr:Pending AND coalesce(prev.status, 'published') <> 'retired'
  RETURN collect(pr.from + '-[' + pr.type + ']->' + pr.to + ' ' + pr.cardinality) AS before
}
WITH r, s, other, theirs,
     CASE WHEN size([b IN before WHERE NOT b IN theirs]) = 0 THEN 'introduces'
          WHEN r.from + '-[' + r.type + ']->' + r.to + ' ' + r.cardinality IN before THEN 'touches'
          ELSE 'worsens' END AS effect
RETURN 'shape_relationship_collisions' AS check, 'warning' AS severity, effect,
       'Shape ' + s.name + ' defines ' + r.from + '-[' + r.type + ']->' + r.to + ' (' + r.cardinality + '), but shape ' + other.name +
       ' uses ' + r.type + ' as ' + reduce(t = '', x IN theirs | t + CASE WHEN t = '' THEN '' ELSE ', ' END + x) +
       '. Rename one, or align them.' AS message,
       [r.id, s.id, other.id] AS node_ids, [] AS relationship_ids,
       {rule: 'relationship_type_collision', relationship_type: r.type, shape_id: s.id, other_shape_id: other.id, other_definitions: theirs} AS evidence
