// The sync runs of a connection, newest first.
// Read newest first in the order of the (connection_id, created_at) index, sought: ORDER BY names both its
// properties, so a page reads its own records, not every one sorted.
MATCH (y:Sync)
USING INDEX SEEK y:Sync(connection_id, created_at)
WHERE y.connection_id = $connection_id AND y.created_at IS NOT NULL AND y.project_id = $project_id
WITH y ORDER BY y.connection_id DESC, y.created_at DESC, y.id DESC LIMIT toInteger($limit)
OPTIONAL MATCH (d:Delta {id: y.delta_id})
         USING INDEX d:Delta(id)
RETURN y {.*, delta_status: d.status} AS sync
