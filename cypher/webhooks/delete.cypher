// Deletes an endpoint, its secrets and its delivery records; a delivery still retrying finds it
// gone and stops. The endpoint's lock comes first (disabling it, which the delete makes moot), so
// a rotation or delivery record committed while this waited is seen and deleted with it.
MATCH (w:WebhookEndpoint {id: $id})
USING INDEX w:WebhookEndpoint(id)
WHERE w.project_id = $project_id
SET w.enabled = false
// Deleted by another delete while this one waited for the lock (its properties read null): no row, 404.
WITH w
WHERE w.id IS NOT NULL
CALL (w) {
  MATCH (s:WebhookSecret {endpoint_id: w.id})
  DETACH DELETE s
}
CALL (w) {
  MATCH (d:WebhookDelivery {endpoint_id: w.id})
  USING INDEX SEEK d:WebhookDelivery(endpoint_id, created_at)
  WHERE d.created_at IS NOT NULL
  DETACH DELETE d
}
DETACH DELETE w
RETURN $id AS id
