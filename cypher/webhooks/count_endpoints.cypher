// Counts the project's webhook endpoints again on its node (webhook_endpoints), in the transaction of an endpoint's
// create or delete: a governed write sends the outbox statement (webhooks/emit) only while the count is not 0
// (docs/webhooks.md). The project's lock comes first (a property set and removed: nothing stays), so the endpoint
// writes of one project count in turn, and the last to count sees every endpoint committed before it and its own
// (a count is no direct dependency of SET: without the lock it would read before it waited). No row: the project
// is gone.
MATCH (p:TenantProject {id: $project_id})
USING INDEX p:TenantProject(id)
SET p.gks_lock = true
REMOVE p.gks_lock
WITH p
SET p.webhook_endpoints = COUNT { MATCH (e:WebhookEndpoint {project_id: $project_id}) }
RETURN p.webhook_endpoints AS webhook_endpoints
