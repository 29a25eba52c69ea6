// An endpoint's deliveries, newest first, a keyset page after ($after_created_at, $after_id).
// Read newest first in the order of the (endpoint_id, created_at) index, sought: ORDER BY names both its
// properties and the cursor bounds the seek, so a page reads its own records, not every one sorted.
MATCH (d:WebhookDelivery {endpoint_id: $endpoint_id})
USING INDEX SEEK d:WebhookDelivery(endpoint_id, created_at)
WHERE d.created_at IS NOT NULL AND d.project_id = $project_id
  AND d.created_at <= coalesce($after_created_at, '9999-12-31T23:59:59.999Z')
  AND CASE WHEN d.created_at = $after_created_at THEN d.id < $after_id ELSE true END
WITH d ORDER BY d.endpoint_id DESC, d.created_at DESC, d.id DESC
LIMIT toInteger($limit)
RETURN properties(d) AS delivery
