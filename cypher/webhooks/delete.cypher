// Deletes an endpoint, its secrets and its delivery records; a delivery still retrying finds it
// gone and stops.
MATCH (w:WebhookEndpoint {id: $id})
WHERE w.project_id = $project_id
OPTIONAL MATCH (s:WebhookSecret {endpoint_id: w.id})
DETACH DELETE s
WITH DISTINCT w
CALL (w) {
  MATCH (d:WebhookDelivery {endpoint_id: w.id})
  DETACH DELETE d
}
DETACH DELETE w
RETURN $id AS id
