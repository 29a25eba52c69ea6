// Creates a webhook endpoint of the project (its secret is sealed on a WebhookSecret node, put_secret), and counts
// the project's endpoints again on its node (webhook_endpoints): a governed write sends the outbox statement
// (webhooks/emit) only while that count is not 0 (docs/webhooks.md). The project's lock comes first (a property set
// and removed: nothing stays), so endpoint writes of one project take turns and each count sees every endpoint
// committed before it (a count is no direct dependency of SET: it would not take the lock before it read).
MATCH (p:TenantProject {id: $project_id})
USING INDEX p:TenantProject(id)
SET p.gks_lock = true
REMOVE p.gks_lock
CREATE (w:WebhookEndpoint {id: $id, project_id: $project_id, url: $url, events: $events, description: $description,
                           enabled: $enabled, disabled_reason: null, disabled_at: null, created_by: $key_id,
                           created_at: $now, updated_at: $now})
WITH p, w
SET p.webhook_endpoints = COUNT { MATCH (e:WebhookEndpoint {project_id: $project_id}) }
RETURN w.id AS id
