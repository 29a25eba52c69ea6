// Takes the connection's write lock (concurrent sync starts, edits and outbound calls serialise on it; a
// property set and removed: nothing stays) and reads it. $project_id null: any project (a sync's
// activities carry the connection id only).
MATCH (c:Connection:Knowledge {id: $id})
USING INDEX c:Knowledge(id)
WHERE $project_id IS NULL OR c.project_id = $project_id
SET c.gks_lock = true
REMOVE c.gks_lock
// Deleted while this waited for the lock (its properties read null): no row.
WITH c
WHERE c.id IS NOT NULL
RETURN properties(c) AS connection, c:Pending AS pending
