// Webhooks (docs/webhooks.md): endpoints looked up by project on every state change (the outbox
// check must stay one index seek), events found by whether they were dispatched, deliveries by id
// and per endpoint newest first.
CREATE CONSTRAINT webhook_endpoint_id IF NOT EXISTS FOR (w:WebhookEndpoint) REQUIRE w.id IS UNIQUE;
CREATE INDEX webhook_endpoint_project IF NOT EXISTS FOR (w:WebhookEndpoint) ON (w.project_id);
CREATE INDEX webhook_secret_endpoint IF NOT EXISTS FOR (s:WebhookSecret) ON (s.endpoint_id);
CREATE CONSTRAINT webhook_event_id IF NOT EXISTS FOR (e:WebhookEvent) REQUIRE e.id IS UNIQUE;
CREATE INDEX webhook_event_pending IF NOT EXISTS FOR (e:WebhookEvent) ON (e.pending);
CREATE CONSTRAINT webhook_delivery_id IF NOT EXISTS FOR (d:WebhookDelivery) REQUIRE d.id IS UNIQUE;
CREATE INDEX webhook_delivery_endpoint IF NOT EXISTS FOR (d:WebhookDelivery) ON (d.endpoint_id, d.created_at);
