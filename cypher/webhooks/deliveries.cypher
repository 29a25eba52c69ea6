// An endpoint's deliveries, newest first, a keyset page after ($after_created_at, $after_id).
MATCH (d:WebhookDelivery {endpoint_id: $endpoint_id})
USING INDEX d:WebhookDelivery(endpoint_id, created_at)
WHERE d.created_at IS NOT NULL AND d.project_id = $project_id
  AND ($after_created_at IS NULL OR d.created_at < $after_created_at
       OR (d.created_at = $after_created_at AND d.id < $after_id))
WITH d ORDER BY d.created_at DESC, d.id DESC
LIMIT toInteger($limit)
RETURN properties(d) AS delivery
