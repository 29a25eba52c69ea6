// Committed documents of the project, newest first (keyset cursor on created_at, id), with their
// collections, whether an extraction delta awaits review, and how many entities applied extraction
// deltas created from them or updated.
// Read newest first in the order of the (project_id, created_at) index, sought: ORDER BY names both its
// properties and the cursor bounds the seek, so a page reads its own records, not every one sorted.
MATCH (d:Document:Knowledge)
USING INDEX SEEK d:Document(project_id, created_at)
WHERE d.project_id = $project_id AND d.created_at IS NOT NULL AND NOT d:Pending
  AND d.created_at <= datetime(coalesce($after_created_at, '9999-12-31T23:59:59.999Z'))
  AND CASE WHEN d.created_at = datetime($after_created_at) THEN d.id < $after_id ELSE true END
WITH d
ORDER BY d.project_id DESC, d.created_at DESC, d.id DESC
LIMIT toInteger($limit)
RETURN properties(d) AS document,
       COLLECT {
         MATCH (d)-[r:IN_COLLECTION]->(c:Collection)
         WHERE r.pending IS NULL AND NOT c:Pending
         RETURN {id: c.id, name: c.name} AS collection ORDER BY c.normalized_name, c.id
       } AS collections,
       EXISTS { MATCH (:Delta {status: 'staged'})-[:USES_SOURCE]->(d) } AS pending_review,
       COUNT {
         MATCH (d)<-[:USES_SOURCE]-(:Delta {status: 'applied'})-[:CREATED]->(e:Entity) WHERE NOT e:Pending RETURN e
         UNION
         MATCH (d)<-[:USES_SOURCE]-(:Delta {status: 'applied'})-[:HAS_CHANGE]->(:Change {op: 'update_node'})-[:TARGET]->(e:Entity)
         RETURN e
       } AS entity_count
