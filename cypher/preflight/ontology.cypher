// Check: ontology (warning).
// Detects entity types the ontology does not know:
//   type_outside_ontology  an entity the delta creates without a shape (a memory's subject or object,
//                          a submission's entities), or an entity whose type an update of the delta
//                          changes, has a type that no committed, non-retired shape visible to the
//                          project (built-in or the project's own) defines as an entity type;
//   type_not_in_shape      an update changes the type of an entity made through a shape to a type
//                          that shape does not define (entities created through a shape are checked
//                          by shape_properties, wherever they come from).
// Lookups: the delta's CREATED entities and update changes, EntityType.label (index), Shape.id.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
USING INDEX d:Delta(id)
CALL (d) {
  MATCH (d)-[:CREATED]->(n:Entity)
  WHERE n.shape_id IS NULL
  RETURN n, n.type AS type, false AS updated
  UNION ALL
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'update_node'})
  WHERE 'type' IN c.set_keys
  // Untyped on purpose: the planner can only expand from the change, never scan every TARGET.
  MATCH (c)-[target]->(n:Entity)
  WHERE type(target) = 'TARGET'
  RETURN n, c['new.type'] AS type, true AS updated
}
WITH n, type, updated
WHERE type IS NOT NULL
CALL (n, type, updated) {
  WITH n, type WHERE n.shape_id IS NULL
    AND NOT EXISTS { MATCH (t:EntityType {label: type})<-[:DEFINES]-(s:Shape)
                     WHERE NOT t:Pending AND NOT s:Pending AND (s.builtin = true OR s.project_id = $project_id)
                       AND coalesce(s.status, 'published') <> 'retired' }
  RETURN 'type_outside_ontology' AS rule, null AS shape_id,
         'Entity ' + coalesce(n.name, n.id) + ' (' + n.id + ') is typed ' + type +
         ', which no shape of this project defines. Use a type of the ontology (GET /v1/ontology), or add it to a shape.' AS message
  UNION ALL
  WITH n, type, updated WHERE updated AND n.shape_id IS NOT NULL
  MATCH (s:Shape {id: n.shape_id})
  USING INDEX s:Shape(id)
  WHERE NOT s:Pending AND NOT EXISTS { (s)-[:DEFINES]->(t:EntityType {label: type}) WHERE NOT t:Pending }
  RETURN 'type_not_in_shape' AS rule, s.id AS shape_id,
         'Entity ' + coalesce(n.name, n.id) + ' (' + n.id + ') would become a ' + type + ', which its shape ' + s.name +
         ' does not define. Pick one of its types.' AS message
}
RETURN 'ontology' AS check, 'warning' AS severity, message, [n.id] AS node_ids, [] AS relationship_ids,
       {rule: rule, node_id: n.id, actual: type, shape_id: shape_id} AS evidence
