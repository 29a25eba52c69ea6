// The deltas of the project that touched one entity, oldest first: the one that created it (its
// delta_id, kept in the deletion snapshot once deleted), those that updated or deleted it
// (Change.node_id, indexed) and those that linked or unlinked it (FROM / TO of relationship changes).
// No row when nothing in the project ever held that id.
CALL () {
  MATCH (m:Entity:Knowledge {id: $id})
  USING INDEX m:Knowledge(id)
  WHERE m.project_id = $project_id
  RETURN m.delta_id AS delta_id, 'create_node' AS op
  UNION
  MATCH (c:Change {node_id: $id})
  RETURN c.delta_id AS delta_id, c.op AS op
  UNION
  MATCH (c:Change {node_id: $id, op: 'delete_node'})
  WHERE c['old.delta_id'] IS NOT NULL
  RETURN c['old.delta_id'] AS delta_id, 'create_node' AS op
  UNION
  MATCH (m:Entity:Knowledge {id: $id})<-[:FROM|TO]-(c:Change)
  USING INDEX m:Knowledge(id)
  RETURN c.delta_id AS delta_id, c.op AS op
}
WITH delta_id, collect(DISTINCT op) AS ops
MATCH (d:Delta {id: delta_id})
USING INDEX d:Delta(id)
WHERE d.project_id = $project_id
WITH d, ops
ORDER BY d.created_at, d.id
RETURN properties(d) AS delta, ops
