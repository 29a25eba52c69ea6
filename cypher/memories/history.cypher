// The deltas of the project that touched one memory, oldest first: the one that created it (its
// delta_id, kept in the deletion snapshot once deleted), those that updated or deleted it
// (Change.node_id, indexed) and those that linked or unlinked it (FROM / TO of relationship changes).
// No row when nothing in the project ever held that id.
// The changes are sought by node_id (USING INDEX SEEK): unhinted, the deletion branch was planned as a scan of
// every deletion's `old.delta_id` index entry of the database (its IS NOT NULL test can use that index).
CALL () {
  MATCH (m:Memory:Knowledge {id: $id})
  USING INDEX m:Knowledge(id)
  WHERE m.project_id = $project_id
  RETURN m.delta_id AS delta_id, 'create_node' AS op
  UNION
  MATCH (c:Change {node_id: $id})
  USING INDEX SEEK c:Change(node_id)
  RETURN c.delta_id AS delta_id, c.op AS op
  UNION
  MATCH (c:Change {node_id: $id, op: 'delete_node'})
  USING INDEX SEEK c:Change(node_id)
  WHERE c['old.delta_id'] IS NOT NULL
  RETURN c['old.delta_id'] AS delta_id, 'create_node' AS op
  UNION
  MATCH (m:Memory:Knowledge {id: $id})<-[:FROM|TO]-(c:Change)
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
