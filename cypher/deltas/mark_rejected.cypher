CYPHER replan=skip
MATCH (d:Delta {id: $delta_id})
USING INDEX d:Delta(id)
SET d.status = 'rejected', d.rejected_at = datetime($now), d.rejected_by = $actor, d.updated_at = datetime($now),
    d.reason = $reason
RETURN d.id AS id
