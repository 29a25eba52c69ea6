// Check: staged_dependents (warning).
// The delta deletes or retires something other staged deltas of the project depend on, so applying
// it first would leave their work dangling (or refused at their own apply):
//   shape_used_by_staged  a shape the delta deletes or retires (an update setting status 'retired')
//                         that another staged delta's new entities or memories use (shape_id), or
//                         that it declares it uses ((:Delta)-[:USES_SHAPE]->: an extraction or a
//                         sync in progress);
//   node_used_by_staged   a node the delta deletes that another staged delta's changes name: its
//                         new relationships come from or point to it (FROM, TO), or it updates or
//                         deletes it too (TARGET).
// The finding names those deltas: evidence dependent_delta_ids (sorted) and the message. Cost: the
// nodes the delta deletes or retires, their incoming change links and shape instances (indexes).
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:HAS_CHANGE]->(c:Change)
USING INDEX d:Delta(id)
WHERE c.op = 'delete_node' OR (c.op = 'update_node' AND 'status' IN c.set_keys AND c['new.status'] = 'retired')
// Untyped on purpose: the planner can only expand from the change, never scan every TARGET.
MATCH (c)-[target]->(n)
WHERE type(target) = 'TARGET' AND (c.op = 'delete_node' OR n:Shape)
CALL (n) {
  WITH n WHERE n:Shape
  CALL (n) {
    // 'Pending' IN labels(x), not x:Pending: with few staged nodes in the statistics the planner would scan
    // the :Pending label and join it to a scan of the shape_id index instead of seeking n.id.
    MATCH (x:Entity {shape_id: n.id})
    USING INDEX SEEK x:Entity(shape_id)
    WHERE 'Pending' IN labels(x) AND x.project_id = $project_id AND x.delta_id <> $delta_id
    RETURN x.delta_id AS other
    UNION
    MATCH (x:Memory {shape_id: n.id})
    USING INDEX SEEK x:Memory(shape_id)
    WHERE 'Pending' IN labels(x) AND x.project_id = $project_id AND x.delta_id <> $delta_id
    RETURN x.delta_id AS other
    UNION
    MATCH (n)<-[:USES_SHAPE]-(o:Delta)
    WHERE o.project_id = $project_id AND o.id <> $delta_id
    RETURN o.id AS other
  }
  RETURN other
  UNION
  WITH n WHERE NOT n:Shape
  MATCH (n)<-[link]-(oc:Change)
  WHERE type(link) IN ['FROM', 'TO', 'TARGET'] AND oc.delta_id <> $delta_id
  RETURN oc.delta_id AS other
}
MATCH (o:Delta {id: other})
USING INDEX o:Delta(id)
WHERE o.status = 'staged' AND o.project_id = $project_id
WITH c, n, collect(DISTINCT o.id) AS others
WITH c, n, others, CASE WHEN n:Shape THEN 'shape_used_by_staged' ELSE 'node_used_by_staged' END AS rule,
     CASE WHEN c.op = 'delete_node' THEN 'Deleting' ELSE 'Retiring' END AS verb,
     CASE WHEN n:Shape THEN 'shape ' + n.name + ' v' + toString(n.version)
          WHEN n:Memory THEN 'memory'
          ELSE coalesce(n.type, head([l IN labels(n) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']]), 'node') +
               coalesce(' ' + n.name, '') END AS what
WITH c, n, rule, verb, what, COLLECT { UNWIND others AS x RETURN x ORDER BY x } AS ids
RETURN 'staged_dependents' AS check, 'warning' AS severity,
       verb + ' ' + what + ' (' + n.id + ') would pull it from under ' + toString(size(ids)) +
       ' other staged delta(s) that depend on it: ' + reduce(t = '', x IN ids | t + CASE WHEN t = '' THEN '' ELSE ', ' END + x) +
       '. Apply or reject those first, or keep it.' AS message,
       [n.id] AS node_ids, [] AS relationship_ids,
       {rule: rule, node_id: n.id, change_id: c.id, dependent_delta_ids: ids, dependent_count: size(ids)} AS evidence
