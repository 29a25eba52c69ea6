// Whether a key (by id) may still act: revoked, or a project key whose project is gone (orphaned),
// and the scopes and tenancy it holds. Used by work that acts later for a key (scheduled syncs), and as
// a request's deferred standing check. $project_id (or null): a project an organization key asks for,
// whose organization is read beside it (src/auth/project.ts), so no read of its own confirms it.
// The statements that carry a request's check in its place read the same, through cypher/auth/standing_subquery.cypher
// (deltas/create, memories/get, memories/search, context/*_search): change both alike.
MATCH (k:ApiKey {id: $id})
USING INDEX k:ApiKey(id)
OPTIONAL MATCH (p:TenantProject {id: k.project_id})
         USING INDEX p:TenantProject(id)
OPTIONAL MATCH (asked:TenantProject {id: $project_id})
         USING INDEX asked:TenantProject(id)
RETURN k.id AS id, k.scopes AS scopes, k.organization_id AS organization_id, k.project_id AS project_id,
       k.revoked_at IS NOT NULL AS revoked, k.project_id IS NOT NULL AND p IS NULL AS orphaned,
       asked.organization_id AS asked_organization_id
