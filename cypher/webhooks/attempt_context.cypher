// What one delivery attempt needs: the delivery, its event, the endpoint (null once deleted) and
// the sealed secrets still signing.
MATCH (d:WebhookDelivery {id: $delivery_id})
MATCH (e:WebhookEvent {id: d.event_id})
USING INDEX e:WebhookEvent(id)
OPTIONAL MATCH (w:WebhookEndpoint {id: d.endpoint_id})
         USING INDEX w:WebhookEndpoint(id)
RETURN properties(d) AS delivery, properties(e) AS event,
       CASE WHEN w IS NULL THEN null ELSE w {.id, .project_id, .url, .enabled} END AS endpoint,
       COLLECT { MATCH (s:WebhookSecret {endpoint_id: d.endpoint_id})
                 WHERE s.expires_at IS NULL OR s.expires_at > $now
                 RETURN s {.id, .ciphertext, .iv, .tag, .key_id} } AS secrets
