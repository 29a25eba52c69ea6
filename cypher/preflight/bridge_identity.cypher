// Check: bridge_identity (warning).
// A mapping staged by the delta for a type with no identity (no id, no hint, no required string):
// its records cannot be recognised again, so map refuses them until a version names one.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:CREATED]->(m:BridgeMapping)
USING INDEX d:Delta(id)
WHERE m.identity_path IS NULL
RETURN 'bridge_identity' AS check, 'warning' AS severity,
       m.record_type + ' (' + m.label + ') has no identity: no id field, no identity hint and no required string field. ' +
       'Its records cannot be mapped until a version names one in options.identity_hints.' AS message,
       [m.id] AS node_ids, [] AS relationship_ids,
       {rule: 'type_without_identity', entity_label: m.label, record_type: m.record_type} AS evidence
