// One connection of the project with its secret's metadata (never the sealed value), its latest sync
// run, and its cursor: the cursor of the newest completed sync whose delta is applied.
MATCH (c:Connection:Knowledge {id: $id})
USING INDEX c:Knowledge(id)
WHERE c.project_id = $project_id
OPTIONAL MATCH (s:ConnectionSecret {connection_id: c.id})
RETURN properties(c) AS connection, c:Pending AS pending,
       CASE WHEN s IS NULL THEN null ELSE {fingerprint: s.fingerprint, set_at: s.set_at, key_id: s.key_id} END AS secret,
       head(COLLECT {
         MATCH (y:Sync {connection_id: c.id}) USING INDEX SEEK y:Sync(connection_id, created_at) WHERE y.created_at IS NOT NULL
         OPTIONAL MATCH (d:Delta {id: y.delta_id})
         USING INDEX d:Delta(id)
         RETURN y {.*, delta_status: d.status} ORDER BY y.created_at DESC LIMIT 1
       }) AS last_sync,
       head(COLLECT {
         MATCH (y:Sync {connection_id: c.id, status: 'completed'}) USING INDEX SEEK y:Sync(connection_id, created_at) WHERE y.created_at IS NOT NULL
         MATCH (:Delta {id: y.delta_id, status: 'applied'})
         RETURN y.cursor ORDER BY y.finished_at DESC LIMIT 1
       }) AS cursor
