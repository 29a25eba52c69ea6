// The outbox: records an event in the transaction of the state change, only when an enabled
// endpoint of the project subscribes to its type (one index seek on the project; nothing written
// otherwise). $data is the event's data as JSON text (ids, status, links only). An event for one
// endpoint ($endpoint_id: a ping) goes to it whatever it subscribes to, while it is enabled.
OPTIONAL MATCH (w:WebhookEndpoint {project_id: $project_id})
WHERE w.enabled = true AND CASE WHEN $endpoint_id IS NULL THEN $type IN w.events ELSE w.id = $endpoint_id END
WITH count(w) AS subscribed
WHERE subscribed > 0
CREATE (e:WebhookEvent {id: $id, type: $type, project_id: $project_id, created_at: $now, data: $data,
                        endpoint_id: $endpoint_id, pending: true})
RETURN e.id AS id
