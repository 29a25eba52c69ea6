// Takes the connection's write lock (concurrent sync starts, edits and outbound calls serialise on it) and
// reads it. $project_id null: any project (a sync's activities carry the connection id only).
MATCH (c:Connection:Knowledge {id: $id})
WHERE $project_id IS NULL OR c.project_id = $project_id
SET c.lock_token = $token
// Deleted while this waited for the lock (its properties read null): no row.
WITH c
WHERE c.id IS NOT NULL
RETURN properties(c) AS connection, c:Pending AS pending
