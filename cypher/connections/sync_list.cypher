// The sync runs of a connection, newest first.
MATCH (y:Sync)
USING INDEX y:Sync(connection_id, created_at)
WHERE y.connection_id = $connection_id AND y.created_at IS NOT NULL AND y.project_id = $project_id
WITH y ORDER BY y.created_at DESC, y.id DESC LIMIT toInteger($limit)
OPTIONAL MATCH (d:Delta {id: y.delta_id})
         USING INDEX d:Delta(id)
RETURN y {.*, delta_status: d.status} AS sync
