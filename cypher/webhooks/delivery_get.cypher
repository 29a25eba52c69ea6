// One delivery of an endpoint of the project.
MATCH (d:WebhookDelivery {id: $delivery_id})
USING INDEX d:WebhookDelivery(id)
WHERE d.endpoint_id = $endpoint_id AND d.project_id = $project_id
RETURN properties(d) AS delivery
