// Check: losses (warning).
// Detects changes that take something away from committed nodes that depend on it:
//   deletes_depended_on  the delta deletes a node that committed relationships point to (from
//                        nodes the delta keeps): those nodes lose that link;
//   identity_changed     the delta changes the identifying property of a node (the shape's
//                        identity, else name; content for memories) that committed relationships
//                        point to: what they refer to by that name changes meaning.
// A relationship the delta recreates on another node (a merge: same type, merged_from naming the
// deleted node) is moved, not lost, and does not count; nor does one the delta deletes itself (a
// delete_relationship change, found from its start node), nor one from a node the delta deletes.
// Nor does one the delta replaces: the dependent gets a new relationship of the same type to a node
// of the same label in this delta (a re-indexed or re-synced document's HAS_CHUNK to its new chunks).
// Up to 50 dependent nodes and relationships are listed (sorted by id); evidence.dependent_count has
// the total. Cost: the in-degree of the nodes the delta deletes or renames.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:HAS_CHANGE]->(c:Change)
USING INDEX d:Delta(id)
WHERE c.op IN ['delete_node', 'update_node']
// Untyped on purpose: the planner can only expand from the change, never scan every TARGET.
MATCH (c)-[target]->(n)
WHERE type(target) = 'TARGET'
WITH c, n,
     CASE WHEN n:Memory THEN 'Memory' ELSE coalesce(n.type, head([l IN labels(n) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']])) END AS label
CALL (c, n, label) {
  WITH c, n, label WHERE c.op = 'delete_node'
  RETURN 'deletes_depended_on' AS rule, null AS property
  UNION ALL
  WITH c, n, label WHERE c.op = 'update_node'
  OPTIONAL MATCH (s:Shape {id: n.shape_id})-[:DEFINES]->(t:EntityType {label: label})
  USING INDEX s:Shape(id)
  WHERE NOT s:Pending AND NOT t:Pending
  WITH c, n, coalesce(t.identity, CASE WHEN n:Memory THEN 'content' ELSE 'name' END) AS identity
  WHERE identity IN c.set_keys
    AND coalesce(toLower(trim(toString(c['new.' + identity]))) <> toLower(trim(toString(n[identity]))), true)
  RETURN 'identity_changed' AS rule, identity AS property
}
WITH c, n, label, rule, property,
     COUNT { MATCH (n)<-[x]-(m:Knowledge)
             WHERE x.pending IS NULL AND NOT EXISTS { (m)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
               AND NOT EXISTS { (m)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: x.id}) }
               AND NOT EXISTS { (m)-[y]-() WHERE y.pending = true AND y.delta_id = $delta_id AND y.merged_from = n.id AND type(y) = type(x) }
               AND NOT EXISTS { (m)-[y]->(o) WHERE y.pending = true AND y.delta_id = $delta_id AND type(y) = type(x)
                                AND any(l IN labels(o) WHERE l IN labels(n) AND NOT l IN ['Knowledge', 'Pending', 'Entity']) } } AS dependent_count
WHERE dependent_count > 0
WITH c, n, label, rule, property, dependent_count,
     COLLECT { MATCH (n)<-[x]-(m:Knowledge)
               WHERE x.pending IS NULL AND NOT EXISTS { (m)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
               AND NOT EXISTS { (m)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: x.id}) }
               AND NOT EXISTS { (m)-[y]-() WHERE y.pending = true AND y.delta_id = $delta_id AND y.merged_from = n.id AND type(y) = type(x) }
               AND NOT EXISTS { (m)-[y]->(o) WHERE y.pending = true AND y.delta_id = $delta_id AND type(y) = type(x)
                                AND any(l IN labels(o) WHERE l IN labels(n) AND NOT l IN ['Knowledge', 'Pending', 'Entity']) }
               RETURN DISTINCT m.id AS id ORDER BY id LIMIT 50 } AS dependents,
     COLLECT { MATCH (n)<-[x]-(m:Knowledge)
               WHERE x.pending IS NULL AND NOT EXISTS { (m)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
               AND NOT EXISTS { (m)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: x.id}) }
               AND NOT EXISTS { (m)-[y]-() WHERE y.pending = true AND y.delta_id = $delta_id AND y.merged_from = n.id AND type(y) = type(x) }
               AND NOT EXISTS { (m)-[y]->(o) WHERE y.pending = true AND y.delta_id = $delta_id AND type(y) = type(x)
                                AND any(l IN labels(o) WHERE l IN labels(n) AND NOT l IN ['Knowledge', 'Pending', 'Entity']) }
               RETURN coalesce(x.id, elementId(x)) AS id ORDER BY id LIMIT 50 } AS relationships,
     COLLECT { MATCH (n)<-[x]-(m:Knowledge)
               WHERE x.pending IS NULL AND NOT EXISTS { (m)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
               AND NOT EXISTS { (m)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: x.id}) }
               AND NOT EXISTS { (m)-[y]-() WHERE y.pending = true AND y.delta_id = $delta_id AND y.merged_from = n.id AND type(y) = type(x) }
               AND NOT EXISTS { (m)-[y]->(o) WHERE y.pending = true AND y.delta_id = $delta_id AND type(y) = type(x)
                                AND any(l IN labels(o) WHERE l IN labels(n) AND NOT l IN ['Knowledge', 'Pending', 'Entity']) }
               RETURN DISTINCT type(x) AS type ORDER BY type } AS types
RETURN 'losses' AS check, 'warning' AS severity,
       CASE rule
         WHEN 'deletes_depended_on' THEN
           'Deleting ' + label + ' ' + coalesce(n.name, n.id) + ' (' + n.id + ') removes ' + toString(dependent_count) +
           ' committed relationship(s) that point to it (' + reduce(t = '', x IN types | t + CASE WHEN t = '' THEN '' ELSE ', ' END + x) +
           '); the nodes at their other end lose that link. Relink them or keep the node.'
         ELSE
           'Changing ' + property + ' of ' + label + ' ' + n.id + ' changes what ' + toString(dependent_count) +
           ' committed relationship(s) (' + reduce(t = '', x IN types | t + CASE WHEN t = '' THEN '' ELSE ', ' END + x) +
           ') refer to. Check that they still mean the same thing.'
       END AS message,
       [n.id] + dependents AS node_ids, relationships AS relationship_ids,
       {rule: rule, node_id: n.id, entity_label: label, property: property, dependent_count: dependent_count, relationship_types: types} AS evidence
