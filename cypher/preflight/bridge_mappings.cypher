// Check: bridge_mappings (error).
// Every mapping the delta stages must name a label its bridge's shape defines, and only properties
// that type declares: otherwise records would be mapped onto nothing. The shape is the one the
// delta's bridge PROPOSES in this delta (create or new version), else the bridge's committed shape.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:CREATED]->(m:BridgeMapping)
USING INDEX d:Delta(id)
MATCH (b:Knowledge {id: m.bridge_id})
USING INDEX b:Knowledge(id)
WHERE b:Bridge
OPTIONAL MATCH (b)-[:PROPOSES]->(proposed:Shape)
WHERE proposed.delta_id = $delta_id
WITH m, b, coalesce(proposed.id, b.shape_id) AS shape_id
OPTIONAL MATCH (s:Shape {id: shape_id})-[:DEFINES]->(t:EntityType)
USING INDEX s:Shape(id)
WHERE t.label = m.label
WITH m, b, shape_id, t,
     CASE WHEN t IS NULL THEN [] ELSE COLLECT { MATCH (t)-[:HAS_PROPERTY]->(p) RETURN p.name } END AS declared
WITH m, b, shape_id, t, [x IN m.property_names WHERE NOT x IN declared] AS missing
WHERE t IS NULL OR size(missing) > 0
RETURN 'bridge_mappings' AS check, 'error' AS severity,
       CASE WHEN t IS NULL
            THEN 'Bridge ' + b.name + ' maps ' + m.record_type + ' onto label ' + m.label + ', which its shape (' + shape_id + ') does not define.'
            ELSE 'Bridge ' + b.name + ' maps ' + m.record_type + ' onto properties ' +
                 reduce(s = '', x IN missing | s + CASE WHEN s = '' THEN '' ELSE ', ' END + x) + ' that ' + m.label + ' does not declare.'
       END AS message,
       [m.id, b.id] AS node_ids, [] AS relationship_ids,
       {rule: CASE WHEN t IS NULL THEN 'mapping_label_missing' ELSE 'mapping_property_missing' END,
        entity_label: m.label, shape_id: shape_id, missing: missing} AS evidence
