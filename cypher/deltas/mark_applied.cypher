MATCH (d:Delta {id: $delta_id})
SET d.status = 'applied', d.applied_at = datetime($now), d.applied_by = $actor, d.updated_at = datetime($now),
    d.override_reason = $override_reason
REMOVE d.lock_token
RETURN d.id AS id
