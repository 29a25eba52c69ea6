// The newest sync run of a connection, any run still queued or running, and the connection's cursor.
MATCH (c:Connection:Knowledge {id: $connection_id})
RETURN head(COLLECT {
         MATCH (y:Sync {connection_id: c.id}) USING INDEX SEEK y:Sync(connection_id, created_at) WHERE y.created_at IS NOT NULL
         OPTIONAL MATCH (d:Delta {id: y.delta_id})
         USING INDEX d:Delta(id)
         RETURN y {.*, delta_status: d.status} ORDER BY y.created_at DESC LIMIT 1
       }) AS last,
       head(COLLECT { MATCH (y:Sync {connection_id: c.id}) USING INDEX SEEK y:Sync(connection_id, created_at) WHERE y.created_at IS NOT NULL AND y.status IN ['queued', 'running'] RETURN y {.*} LIMIT 1 }) AS active,
       head(COLLECT {
         MATCH (y:Sync {connection_id: c.id, status: 'completed'}) USING INDEX SEEK y:Sync(connection_id, created_at) WHERE y.created_at IS NOT NULL
         MATCH (:Delta {id: y.delta_id, status: 'applied'})
         RETURN y.cursor ORDER BY y.finished_at DESC LIMIT 1
       }) AS cursor
