MATCH (d:Delta {id: $delta_id})
SET d.status = 'rejected', d.rejected_at = datetime($now), d.rejected_by = $actor, d.updated_at = datetime($now),
    d.reason = $reason
REMOVE d.lock_token
RETURN d.id AS id
