// One sync run of a connection of the project, with its delta's status.
MATCH (y:Sync {id: $sync_id})
USING INDEX y:Sync(id)
WHERE y.connection_id = $connection_id AND y.project_id = $project_id
OPTIONAL MATCH (d:Delta {id: y.delta_id})
         USING INDEX d:Delta(id)
RETURN y {.*, delta_status: d.status} AS sync
