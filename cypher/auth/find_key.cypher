// The API key whose public lookup token matches; the caller compares the secret hash in constant time.
// A project key whose project no longer exists is reported as orphaned (it authenticates nothing).
MATCH (k:ApiKey {lookup: $lookup})
OPTIONAL MATCH (p:TenantProject {id: k.project_id})
         USING INDEX p:TenantProject(id)
RETURN k.id AS id, k.secret_hash AS secret_hash, k.scopes AS scopes, k.organization_id AS organization_id,
       k.project_id AS project_id, k.revoked_at IS NOT NULL AS revoked, k.name AS name,
       k.project_id IS NOT NULL AND p IS NULL AS orphaned, k.writes AS writes
