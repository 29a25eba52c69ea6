MATCH (d:Delta {id: $delta_id})
SET d.status = 'reverted', d.reverted_at = datetime($now), d.reverted_by = $actor, d.updated_at = datetime($now),
    d.reason = $reason
RETURN d.id AS id
