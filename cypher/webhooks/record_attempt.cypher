// Records one attempt's outcome on the delivery (status code and latency, never the answer's body).
MATCH (d:WebhookDelivery {id: $delivery_id})
SET d.status = $status, d.attempt_count = d.attempt_count + 1, d.last_status_code = $status_code,
    d.last_latency_ms = $latency_ms, d.last_error = $error, d.last_attempt_at = $now, d.next_retry_at = $next_retry_at
RETURN d.id AS id
