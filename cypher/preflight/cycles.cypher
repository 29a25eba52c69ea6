// Check: cycles (error).
// Detects a relationship the delta creates in a hierarchy that would close a cycle
// (a PART_OF b PART_OF ... PART_OF a). Hierarchical types: PART_OF, and any type that the shape of
// either endpoint defines as many_to_one with the same label (or 'Entity') at both ends.
//   closes_cycle  the new relationship a -> b, plus a path b -> ... -> a of the same type over
//                 committed relationships and this delta's pending ones, avoiding the nodes and the
//                 relationships the delta deletes (a cycle the delta itself breaks is no cycle). A self-loop is a cycle of length one. A cycle closed by several new
//                 relationships is reported once (by the smallest relationship id).
// Cost: a shortest-path search from each new hierarchical relationship along its own type only.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:HAS_CHANGE]->(c:Change {op: 'create_relationship'})
USING INDEX d:Delta(id)
MATCH (c)-[:FROM]->(a)
MATCH (c)-[:TO]->(b)
WHERE (c.type = 'PART_OF'
       OR EXISTS { MATCH (s:Shape)-[:DEFINES]->(rt:RelationshipType {type: c.type, cardinality: 'many_to_one'})
                   WHERE s.id IN [a.shape_id, b.shape_id] AND NOT s:Pending AND NOT rt:Pending AND rt.from = rt.to })
  AND NOT EXISTS { (a)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
  AND NOT EXISTS { (b)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
CALL (c, a, b) {
  WITH c, a, b WHERE a = b
  RETURN [a.id, a.id] AS path, [c.relationship_id] AS relationship_ids
  UNION ALL
  WITH c, a, b WHERE a <> b
  MATCH p = SHORTEST 1 (b)((u)-[x]->(y)
            WHERE type(x) = c.type AND (x.pending IS NULL OR x.delta_id = $delta_id)
              AND NOT EXISTS { (u)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: x.id}) }
              AND NOT EXISTS { (y)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) })+(a)
  RETURN [a.id] + [y IN nodes(p) | y.id] AS path,
         [c.relationship_id] + [x IN relationships(p) WHERE x.pending = true | x.id] AS relationship_ids
}
WITH c, path, relationship_ids
WHERE all(id IN relationship_ids WHERE c.relationship_id <= id)
RETURN 'cycles' AS check, 'error' AS severity,
       c.type + ' ' + path[0] + ' -> ' + path[1] + ' would close a cycle: ' +
       reduce(t = '', id IN path | t + CASE WHEN t = '' THEN '' ELSE ' -> ' END + id) +
       '. A hierarchy cannot contain itself; drop or redirect the relationship.' AS message,
       path[0..size(path) - 1] AS node_ids, relationship_ids,
       {rule: 'closes_cycle', relationship_type: c.type, path: path, length: size(path) - 1} AS evidence
