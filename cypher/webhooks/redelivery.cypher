// A new delivery of an earlier delivery's event to the same endpoint (redeliver).
MATCH (old:WebhookDelivery {id: $delivery_id})
USING INDEX old:WebhookDelivery(id)
WHERE old.endpoint_id = $endpoint_id AND old.project_id = $project_id
MATCH (e:WebhookEvent {id: old.event_id})
USING INDEX e:WebhookEvent(id)
CREATE (d:WebhookDelivery {id: $id, event_id: e.id, endpoint_id: old.endpoint_id, project_id: old.project_id,
                           event_type: e.type, status: 'pending', attempt_count: 0, last_status_code: null,
                           last_latency_ms: null, last_error: null, last_attempt_at: null, next_retry_at: null,
                           created_at: $now, redelivery_of: old.id})
RETURN properties(d) AS delivery
