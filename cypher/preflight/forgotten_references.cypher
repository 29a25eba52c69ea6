// Check: forgotten_references (warning).
// Detects a relationship the delta creates that starts or ends at a committed memory whose
// forget_after has passed ($now), after the delta's own updates of forget_after: new knowledge
// would lean on something the project chose to forget.
//   references_forgotten_memory
// Lookups: the delta's relationship changes and their FROM / TO nodes only.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:HAS_CHANGE]->(c:Change {op: 'create_relationship'})
USING INDEX d:Delta(id)
MATCH (c)-[e:FROM|TO]->(m:Memory)
WHERE NOT m:Pending
WITH c, e, m,
     COLLECT { MATCH (m)<-[:TARGET]-(u:Change {op: 'update_node', delta_id: $delta_id})
               WHERE 'forget_after' IN u.set_keys RETURN u ORDER BY u.seq } AS ups
WITH c, e, m, CASE WHEN size(ups) = 0 THEN m.forget_after ELSE last(ups)['new.forget_after'] END AS forget_after
WHERE forget_after IS NOT NULL AND forget_after < datetime($now)
OPTIONAL MATCH (c)-[:FROM|TO]->(other)
WHERE other <> m
RETURN 'forgotten_references' AS check, 'warning' AS severity,
       c.type + ' relationship ' + c.relationship_id + ' ' + CASE type(e) WHEN 'FROM' THEN 'starts at' ELSE 'points to' END +
       ' memory ' + m.id + ', forgotten since ' + toString(forget_after) +
       '. Link to current knowledge instead, or extend forget_after first.' AS message,
       [x IN [m.id, other.id] WHERE x IS NOT NULL] AS node_ids, [c.relationship_id] AS relationship_ids,
       {rule: 'references_forgotten_memory', memory_id: m.id, forget_after: forget_after, relationship_type: c.type,
        end: toLower(type(e))} AS evidence
