// Operational edits of a connection (configuration, status), written by the engine directly.
MATCH (c:Connection:Knowledge {id: $id})
USING INDEX c:Knowledge(id)
WHERE c.project_id = $project_id
SET c += $set, c.updated_at = datetime($now)
REMOVE c.lock_token
RETURN c.id AS id
