// What uses a shape in the project: committed nodes made through it (not its own definition nodes),
// and staged deltas that would add such nodes or declare (delta)-[:USES_SHAPE]->(shape).
// The project's nodes are sought by its index: unhinted, the planner scanned every Knowledge node of the
// database for the negated labels.
CALL () {
  MATCH (n:Knowledge {project_id: $project_id})
  USING INDEX SEEK n:Knowledge(project_id)
  WHERE n.shape_id = $id AND NOT (n:EntityType OR n:PropertyDef OR n:RelationshipType)
  WITH n ORDER BY n.id
  RETURN count(CASE WHEN NOT n:Pending THEN 1 END) AS node_count,
         collect(CASE WHEN NOT n:Pending THEN n.id END)[..10] AS node_ids,
         collect(DISTINCT CASE WHEN n:Pending THEN n.delta_id END) AS pending_deltas
}
CALL () {
  MATCH (d:Delta {project_id: $project_id, status: 'staged'})-[:USES_SHAPE]->(:Shape {id: $id})
  RETURN collect(DISTINCT d.id) AS using_deltas
}
RETURN node_count, node_ids, pending_deltas + using_deltas AS staged_delta_ids
