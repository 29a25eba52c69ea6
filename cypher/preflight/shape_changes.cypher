// Check: shape_changes (what a shape deletion or a new shape version takes from committed instances).
//   shape_in_use       (error)   the delta deletes a shape while committed nodes of the project
//                                refer to it by shape_id (the deletion may have been staged while the
//                                shape was unused: the audit at apply time sees the instances since);
//   type_dropped       (warning) a new version (SUPERSEDES the old) no longer defines an entity type
//                                that committed instances of the old version have;
//   property_dropped   (warning) a new version keeps the type but drops a property committed
//                                instances of the old version have a value for.
// Up to 50 instance ids are listed (sorted); evidence.dependent_count has the total. Lookups: the
// delta's deleted and created shapes, then Entity.shape_id and Memory.shape_id (indexes): cost the
// instances of the shapes the delta touches.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
USING INDEX d:Delta(id)
CALL (d) {
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'delete_node'})
  // Untyped on purpose: the planner can only expand from the change, never scan every TARGET.
  MATCH (c)-[target]->(s:Shape)
  WHERE type(target) = 'TARGET'
  RETURN s AS shape, s AS old, null AS label, null AS property, 'shape_in_use' AS rule
  UNION ALL
  MATCH (d)-[:CREATED]->(s:Shape)-[sup:SUPERSEDES]->(old:Shape)
  WHERE sup.delta_id = $delta_id
  MATCH (old)-[:DEFINES]->(t:EntityType)
  WHERE NOT t:Pending
  OPTIONAL MATCH (s)-[:DEFINES]->(nt:EntityType {label: t.label})
  CALL (t, nt) {
    WITH t, nt WHERE nt IS NULL
    RETURN null AS property, 'type_dropped' AS rule
    UNION ALL
    WITH t, nt WHERE nt IS NOT NULL
    MATCH (t)-[:HAS_PROPERTY]->(p:PropertyDef)
    WHERE NOT p:Pending AND NOT EXISTS { (nt)-[:HAS_PROPERTY]->(:PropertyDef {name: p.name}) }
    RETURN p.name AS property, 'property_dropped' AS rule
  }
  RETURN s AS shape, old, t.label AS label, property, rule
}
CALL (old, label, property) {
  CALL (old, label) {
    MATCH (x:Entity {shape_id: old.id})
    USING INDEX SEEK x:Entity(shape_id)
    WHERE x.project_id = $project_id AND NOT x:Pending AND (label IS NULL OR x.type = label)
    RETURN x
    UNION
    MATCH (x:Memory {shape_id: old.id})
    USING INDEX SEEK x:Memory(shape_id)
    WHERE x.project_id = $project_id AND NOT x:Pending AND (label IS NULL OR label = 'Memory')
    RETURN x
  }
  WITH x WHERE (property IS NULL OR x[property] IS NOT NULL)
    AND NOT EXISTS { (x)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
  WITH x.id AS id ORDER BY id
  RETURN collect(id) AS instances
}
WITH shape, old, label, property, rule, instances
WHERE size(instances) > 0
RETURN 'shape_changes' AS check, CASE rule WHEN 'shape_in_use' THEN 'error' ELSE 'warning' END AS severity,
       CASE rule
         WHEN 'shape_in_use' THEN
           'Deleting shape ' + old.name + ' v' + toString(old.version) + ' (' + old.id + ') would leave ' + toString(size(instances)) +
           ' committed node(s) naming a shape that no longer exists. Retire the shape instead, or remove its instances first.'
         WHEN 'type_dropped' THEN
           'Version ' + toString(shape.version) + ' of shape ' + old.name + ' drops entity type ' + label + ', which ' + toString(size(instances)) +
           ' committed instance(s) of version ' + toString(old.version) + ' have. Keep the type, or migrate them first.'
         ELSE
           'Version ' + toString(shape.version) + ' of shape ' + old.name + ' drops property ' + property + ' of ' + label + ', which ' +
           toString(size(instances)) + ' committed instance(s) of version ' + toString(old.version) + ' set. Keep the property, or migrate them first.'
       END AS message,
       [shape.id] + instances[0..50] AS node_ids, [] AS relationship_ids,
       {rule: rule, shape_id: old.id, entity_label: label, property: property, dependent_count: size(instances)} AS evidence
