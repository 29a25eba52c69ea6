// Disables an endpoint whose delivery failed for the whole retry window (once: returns no row when
// it was already disabled).
MATCH (w:WebhookEndpoint {id: $endpoint_id})
USING INDEX w:WebhookEndpoint(id)
WHERE w.enabled = true
SET w.enabled = false, w.disabled_reason = $reason, w.disabled_at = $now, w.updated_at = $now
RETURN w.id AS id, w.project_id AS project_id
