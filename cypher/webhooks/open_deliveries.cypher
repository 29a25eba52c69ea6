// One delivery per (event, endpoint) for the enabled endpoints subscribed to the event (that existed
// when it happened), created once: a dispatcher pass repeated after a crash finds them already there.
MATCH (e:WebhookEvent {id: $event_id})
USING INDEX e:WebhookEvent(id)
MATCH (w:WebhookEndpoint {project_id: e.project_id})
WHERE w.enabled = true AND w.created_at <= e.created_at
  AND CASE WHEN e.endpoint_id IS NULL THEN e.type IN w.events ELSE w.id = e.endpoint_id END
WITH e, w, $prefix + e.id + '.' + w.id AS key
MERGE (d:WebhookDelivery {id: key})
ON CREATE SET d.event_id = e.id, d.endpoint_id = w.id, d.project_id = e.project_id, d.event_type = e.type,
              d.status = 'pending', d.attempt_count = 0, d.last_status_code = null, d.last_latency_ms = null,
              d.last_error = null, d.last_attempt_at = null, d.next_retry_at = null, d.created_at = $now,
              d.redelivery_of = null
RETURN d.id AS id, w.id AS endpoint_id, d.status AS status
