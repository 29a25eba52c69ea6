// Projects created before the count of their webhook endpoints (docs/webhooks.md, "Exactly once per state
// change") are counted once, so their writes stop sending the outbox statement when they have no endpoint. Each
// is counted under its lock, as webhooks/count_endpoints counts after an endpoint's create or delete, so an
// endpoint another process writes meanwhile is seen. A project counted already is not counted again.
MATCH (p:TenantProject)
WHERE p.webhook_endpoints IS NULL
SET p.gks_lock = true
REMOVE p.gks_lock
WITH p
SET p.webhook_endpoints = COUNT { MATCH (e:WebhookEndpoint {project_id: p.id}) };
