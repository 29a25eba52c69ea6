// Destroys a connection's secret and marks it revoked; a revert of any delta cannot bring it back.
MATCH (c:Connection:Knowledge {id: $id})
USING INDEX c:Knowledge(id)
WHERE c.project_id = $project_id
OPTIONAL MATCH (s:ConnectionSecret {connection_id: c.id})
DETACH DELETE s
SET c.status = 'revoked', c.status_reason = null, c.revoked_at = datetime($now), c.updated_at = datetime($now)
RETURN c.id AS id
