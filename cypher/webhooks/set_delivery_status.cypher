// Ends a delivery without an attempt (its endpoint was disabled or deleted meanwhile).
MATCH (d:WebhookDelivery {id: $delivery_id})
SET d.status = $status, d.next_retry_at = null, d.last_error = coalesce($error, d.last_error)
RETURN d.id AS id
