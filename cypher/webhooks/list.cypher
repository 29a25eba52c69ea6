// The project's endpoints, newest first, a keyset page after ($after_created_at, $after_id).
MATCH (w:WebhookEndpoint)
WHERE w.project_id = $project_id
  AND ($after_created_at IS NULL OR w.created_at < $after_created_at
       OR (w.created_at = $after_created_at AND w.id < $after_id))
WITH w ORDER BY w.created_at DESC, w.id DESC
LIMIT toInteger($limit)
RETURN properties(w) AS webhook,
       head(COLLECT { MATCH (s:WebhookSecret {endpoint_id: w.id}) WHERE s.expires_at IS NULL
                      RETURN {fingerprint: s.fingerprint, set_at: s.set_at} }) AS secret,
       head(COLLECT { MATCH (s:WebhookSecret {endpoint_id: w.id}) WHERE s.expires_at IS NOT NULL
                      RETURN s.expires_at }) AS previous_expires_at
