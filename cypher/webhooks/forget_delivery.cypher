// Deletes a delivery record whose endpoint is gone: one its dispatch created while the endpoint's
// delete committed (the delete removes the records it finds; this is the one it could not see).
MATCH (d:WebhookDelivery {id: $delivery_id})
WHERE NOT EXISTS { MATCH (w:WebhookEndpoint {id: d.endpoint_id}) USING INDEX w:WebhookEndpoint(id) }
DETACH DELETE d
RETURN $delivery_id AS id
