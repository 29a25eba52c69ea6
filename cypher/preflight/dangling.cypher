// Check: dangling (error).
// Detects changes of the delta that would leave a reference to nothing:
//   endpoint_missing  a relationship the delta creates has lost its start or end node (deleted by
//                     another delta since it was staged); applying would silently drop it;
//   endpoint_deleted  a relationship the delta creates points to a node the same delta deletes;
//   target_missing    an update or deletion of the delta names a node that no longer exists;
//   relationship_missing  a relationship the delta deletes no longer exists (deleted or replaced by
//                     another delta since it was staged: a memory's fact edge after a correction);
//                     applying would delete nothing and leave the replacement behind.
// Lookups: the delta's change records and their FROM / TO / TARGET links only.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:HAS_CHANGE]->(c:Change)
USING INDEX d:Delta(id)
CALL (c) {
  WITH c WHERE c.op = 'create_relationship'
  OPTIONAL MATCH (c)-[:FROM]->(a)
  OPTIONAL MATCH (c)-[:TO]->(b)
  WITH c, a, b WHERE a IS NULL OR b IS NULL
  RETURN 'endpoint_missing' AS rule, [x IN [a, b] WHERE x IS NOT NULL | x.id] AS node_ids, [c.relationship_id] AS relationship_ids,
         CASE WHEN a IS NULL AND b IS NULL THEN 'both' WHEN a IS NULL THEN 'from' ELSE 'to' END AS missing_end,
         null AS node_id,
         c.type + ' relationship ' + c.relationship_id + ' has lost its ' +
         CASE WHEN a IS NULL AND b IS NULL THEN 'start and end nodes' WHEN a IS NULL THEN 'start node' ELSE 'end node' END +
         ' (deleted since the delta was staged); reject the delta or restage it without this relationship.' AS message
  UNION ALL
  WITH c WHERE c.op = 'create_relationship'
  MATCH (c)-[:FROM]->(a)
  MATCH (c)-[:TO]->(b)
  UNWIND [['from', a], ['to', b]] AS side
  WITH c, a, b, side[0] AS end, side[1] AS x
  WHERE EXISTS { (x)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
  RETURN 'endpoint_deleted' AS rule, [a.id, b.id] AS node_ids, [c.relationship_id] AS relationship_ids,
         end AS missing_end, x.id AS node_id,
         c.type + ' relationship ' + c.relationship_id + ' points to node ' + x.id +
         ', which the same delta deletes; drop the relationship or keep the node.' AS message
  UNION ALL
  WITH c WHERE c.op IN ['update_node', 'delete_node'] AND NOT EXISTS { (c)-[:TARGET]->() }
  RETURN 'target_missing' AS rule, [c.node_id] AS node_ids, [] AS relationship_ids, null AS missing_end, c.node_id AS node_id,
         CASE c.op WHEN 'update_node' THEN 'The update of node ' ELSE 'The deletion of node ' END + c.node_id +
         ' names a node that no longer exists; reject the delta or restage it.' AS message
  UNION ALL
  WITH c WHERE c.op = 'delete_relationship'
  OPTIONAL MATCH (c)-[:FROM]->(a)
  OPTIONAL MATCH (c)-[:TO]->(b)
  WITH c, a, b
  WHERE a IS NULL OR b IS NULL OR NOT EXISTS { MATCH (a)-[r]->(b) WHERE r.id = c.relationship_id }
  RETURN 'relationship_missing' AS rule, [x IN [a, b] WHERE x IS NOT NULL | x.id] AS node_ids,
         [c.relationship_id] AS relationship_ids, null AS missing_end, null AS node_id,
         'The deletion of ' + c.type + ' relationship ' + c.relationship_id + ' names a relationship that no ' +
         'longer exists (deleted or replaced since the delta was staged); reject the delta or restage it.' AS message
}
RETURN 'dangling' AS check, 'error' AS severity, message, node_ids, relationship_ids,
       {rule: rule, change_id: c.id, relationship_type: c.type, missing_end: missing_end, node_id: node_id} AS evidence
