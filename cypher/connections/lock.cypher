// Takes the connection's write lock (concurrent sync starts and edits serialise on it) and reads it.
MATCH (c:Connection:Knowledge {id: $id})
WHERE c.project_id = $project_id
SET c.lock_token = $token
RETURN properties(c) AS connection, c:Pending AS pending
