// Events not yet handed to delivery workflows, oldest first.
MATCH (e:WebhookEvent)
WHERE e.pending = true
WITH e ORDER BY e.created_at, e.id
LIMIT toInteger($limit)
RETURN e.id AS id, e.type AS type, e.project_id AS project_id, e.created_at AS created_at
