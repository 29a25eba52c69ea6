// Check: shape_properties (shape violations on nodes).
// Every entity or memory the delta creates, and every property the delta sets on a committed one, is
// checked against the committed definitions of the node's shape (shape_id): (:Shape)-[:DEFINES]->
// (:EntityType {label, required})-[:HAS_PROPERTY]->(:PropertyDef {name, type, enum}).
//   unknown_shape     (error)   shape_id names no committed shape visible to the project;
//   undefined_type    (error)   the shape defines types, but not this node's label;
//   missing_required  (error)   a required property is absent (or removed by an update);
//   wrong_type        (error)   the value does not have the declared type (string, number, integer,
//                               boolean, date, datetime; a date/datetime may also be an ISO string);
//   outside_enum      (error)   the value is not one of the declared enum values;
//   shape_pending     (info)    the shape is itself created by this delta: its rules apply once committed.
// A shape without any committed definition has nothing to check against and is skipped.
// Lookups: the delta's CREATED nodes and update changes, Shape.id (unique), DEFINES from that shape.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
USING INDEX d:Delta(id)
CALL (d) {
  MATCH (d)-[:CREATED]->(n)
  // Labels tested through labels(n) on purpose: with n:Entity OR n:Memory the planner may scan the
  // shape_id indexes of both labels and join them to the delta, when its statistics say they are small.
  WHERE n.shape_id IS NOT NULL AND any(l IN labels(n) WHERE l IN ['Entity', 'Memory'])
  RETURN n, true AS created, [] AS changes
  UNION ALL
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'update_node'})
  // Untyped on purpose: the planner can only expand from the change, never scan every TARGET.
  MATCH (c)-[target]->(n)
  WHERE type(target) = 'TARGET' AND n.shape_id IS NOT NULL AND any(l IN labels(n) WHERE l IN ['Entity', 'Memory'])
  WITH DISTINCT n
  RETURN n, false AS created,
         COLLECT { MATCH (n)<-[:TARGET]-(u:Change {op: 'update_node', delta_id: $delta_id}) RETURN u ORDER BY u.seq } AS changes
}
WITH n, created, changes,
     CASE WHEN n:Memory THEN 'Memory' ELSE coalesce(n.type, head([l IN labels(n) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']])) END AS label,
     reduce(ks = [], u IN changes | ks + [k IN u.set_keys WHERE NOT k IN ks]) AS touched
OPTIONAL MATCH (s:Shape {id: n.shape_id})
USING INDEX s:Shape(id)
WHERE s.builtin = true OR s.project_id = $project_id
WITH n, created, changes, label, touched, s,
     CASE WHEN s IS NULL THEN 'unknown'
          WHEN s:Pending AND s.delta_id = $delta_id THEN 'pending'
          WHEN s:Pending THEN 'unknown'
          ELSE 'committed' END AS shape_state
CALL (n, created, changes, label, touched, s, shape_state) {
  WITH n, shape_state WHERE shape_state = 'unknown'
  RETURN 'error' AS severity, 'unknown_shape' AS rule, null AS property, null AS expected, null AS actual,
         label + ' ' + n.id + ' names shape ' + n.shape_id + ', which is not a committed shape of this project.' AS message
  UNION ALL
  WITH n, shape_state WHERE shape_state = 'pending'
  RETURN 'info' AS severity, 'shape_pending' AS rule, null AS property, null AS expected, null AS actual,
         label + ' ' + n.id + ' uses shape ' + n.shape_id + ', which this delta creates; its rules are checked once it is committed.' AS message
  UNION ALL
  WITH n, created, label, s, shape_state
  WHERE shape_state = 'committed' AND created
    AND EXISTS { (s)-[:DEFINES]->(x) WHERE NOT x:Pending }
    AND NOT EXISTS { (s)-[:DEFINES]->(t:EntityType {label: label}) WHERE NOT t:Pending }
  RETURN 'error' AS severity, 'undefined_type' AS rule, null AS property,
         COLLECT { MATCH (s)-[:DEFINES]->(t:EntityType) WHERE NOT t:Pending RETURN t.label ORDER BY t.label } AS expected, label AS actual,
         label + ' ' + n.id + ' is not a type of shape ' + s.name + '; use one of its types or another shape.' AS message
  UNION ALL
  MATCH (s)-[:DEFINES]->(t:EntityType {label: label})
  WHERE shape_state = 'committed' AND NOT t:Pending
  UNWIND coalesce(t.required, []) AS k
  WITH n, changes, created, touched, label, s, k
  WHERE created OR k IN touched
  WITH n, label, s, k, CASE WHEN k IN touched THEN last([u IN changes WHERE k IN u.set_keys | u['new.' + k]]) ELSE n[k] END AS v
  WHERE v IS NULL
  RETURN 'error' AS severity, 'missing_required' AS rule, k AS property, 'a value' AS expected, null AS actual,
         label + ' ' + n.id + ' has no ' + k + ', which shape ' + s.name + ' requires; set it.' AS message
  UNION ALL
  MATCH (s)-[:DEFINES]->(t:EntityType {label: label})-[:HAS_PROPERTY]->(p:PropertyDef)
  WHERE shape_state = 'committed' AND NOT t:Pending AND NOT p:Pending AND (created OR p.name IN touched)
  WITH n, label, s, p, CASE WHEN p.name IN touched THEN last([u IN changes WHERE p.name IN u.set_keys | u['new.' + p.name]]) ELSE n[p.name] END AS v
  WHERE v IS NOT NULL
  WITH n, label, s, p, v,
       CASE p.type
         WHEN 'string' THEN v IS :: STRING
         WHEN 'number' THEN v IS :: INTEGER OR v IS :: FLOAT
         WHEN 'integer' THEN CASE WHEN v IS :: INTEGER THEN true WHEN v IS :: FLOAT THEN v = round(v) ELSE false END
         WHEN 'boolean' THEN v IS :: BOOLEAN
         WHEN 'date' THEN CASE WHEN v IS :: DATE THEN true WHEN v IS :: STRING THEN v =~ '\\d{4}-\\d{2}-\\d{2}' ELSE false END
         WHEN 'datetime' THEN CASE WHEN v IS :: ZONED DATETIME OR v IS :: LOCAL DATETIME THEN true
                                   WHEN v IS :: STRING THEN v =~ '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}.*' ELSE false END
         ELSE true
       END AS type_ok
  WITH n, label, s, p, v, type_ok
  WHERE NOT type_ok OR (p.enum IS NOT NULL AND size(p.enum) > 0 AND NOT v IN p.enum)
  RETURN 'error' AS severity,
         CASE WHEN type_ok THEN 'outside_enum' ELSE 'wrong_type' END AS rule,
         p.name AS property,
         CASE WHEN type_ok THEN p.enum ELSE p.type END AS expected,
         CASE WHEN type_ok THEN v ELSE replace(valueType(v), ' NOT NULL', '') END AS actual,
         CASE WHEN type_ok
           THEN label + ' ' + n.id + ': ' + p.name + ' is not one of the values shape ' + s.name + ' allows.'
           ELSE label + ' ' + n.id + ': ' + p.name + ' must be a ' + p.type + ' (shape ' + s.name + ') but is a ' + toLower(replace(valueType(v), ' NOT NULL', '')) + '.'
         END AS message
}
RETURN 'shape_properties' AS check, severity, message, [n.id] AS node_ids, [] AS relationship_ids,
       {rule: rule, shape_id: n.shape_id, entity_label: label, property: property, expected: expected, actual: actual} AS evidence
