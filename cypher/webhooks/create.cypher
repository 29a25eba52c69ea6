// Creates a webhook endpoint of the project (its secret is sealed on a WebhookSecret node, put_secret).
CREATE (w:WebhookEndpoint {id: $id, project_id: $project_id, url: $url, events: $events, description: $description,
                           enabled: $enabled, disabled_reason: null, disabled_at: null, created_by: $key_id,
                           created_at: $now, updated_at: $now})
RETURN w.id AS id
