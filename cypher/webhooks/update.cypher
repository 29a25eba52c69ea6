// Sets the given fields of an endpoint ($set holds only what the PATCH named, already validated).
// Enabling clears the reason it was disabled for.
MATCH (w:WebhookEndpoint {id: $id})
USING INDEX w:WebhookEndpoint(id)
WHERE w.project_id = $project_id
SET w += $set, w.updated_at = $now
SET w.disabled_reason = CASE WHEN w.enabled THEN null ELSE coalesce($disabled_reason, w.disabled_reason) END,
    w.disabled_at = CASE WHEN w.enabled THEN null ELSE coalesce(w.disabled_at, $now) END
RETURN w.id AS id
