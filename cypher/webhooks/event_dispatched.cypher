// Marks an event handed to its delivery workflows (its deliveries exist and their workflows started).
MATCH (e:WebhookEvent {id: $id})
SET e.pending = false, e.dispatched_at = $now
RETURN e.id AS id
