// Whether a key (by id) may still act: revoked, or a project key whose project is gone (orphaned),
// and the scopes and tenancy it holds. Used by work that acts later for a key (scheduled syncs).
MATCH (k:ApiKey {id: $id})
USING INDEX k:ApiKey(id)
OPTIONAL MATCH (p:TenantProject {id: k.project_id})
         USING INDEX p:TenantProject(id)
RETURN k.id AS id, k.scopes AS scopes, k.organization_id AS organization_id, k.project_id AS project_id,
       k.revoked_at IS NOT NULL AS revoked, k.project_id IS NOT NULL AND p IS NULL AS orphaned
