// One endpoint of the project with its current secret's fingerprint and the rotated-out secret's expiry.
MATCH (w:WebhookEndpoint {id: $id})
USING INDEX w:WebhookEndpoint(id)
WHERE w.project_id = $project_id
RETURN properties(w) AS webhook,
       head(COLLECT { MATCH (s:WebhookSecret {endpoint_id: w.id}) WHERE s.expires_at IS NULL
                      RETURN {fingerprint: s.fingerprint, set_at: s.set_at} }) AS secret,
       head(COLLECT { MATCH (s:WebhookSecret {endpoint_id: w.id}) WHERE s.expires_at IS NOT NULL
                      RETURN s.expires_at }) AS previous_expires_at
