// A fragment, not a statement: included (src/db/cypher.ts) by each statement that carries a request's standing
// check in place of auth/key_standing: deltas/create for a governed write (Graph.writeCarrying), and the hot reads
// that include it (src/db/graph.ts, carriesStanding: memories/get, memories/search, context/*_search). $standing
// is auth/key_standing's parameters ({id, project_id}), or null when the statement carries no check. It answers
// that statement's row as `standing` (null: no such key, or no check), so the check costs no statement of its
// own. Its reads are auth/key_standing's, and must stay the same: change both alike.
CALL () {
  OPTIONAL MATCH (k:ApiKey {id: $standing.id})
  USING INDEX k:ApiKey(id)
  OPTIONAL MATCH (kp:TenantProject {id: k.project_id})
           USING INDEX kp:TenantProject(id)
  OPTIONAL MATCH (asked:TenantProject {id: $standing.project_id})
           USING INDEX asked:TenantProject(id)
  RETURN CASE WHEN k IS NULL THEN null ELSE {
    id: k.id, scopes: k.scopes, organization_id: k.organization_id, project_id: k.project_id,
    revoked: k.revoked_at IS NOT NULL, orphaned: k.project_id IS NOT NULL AND kp IS NULL,
    asked_organization_id: asked.organization_id
  } END AS standing
}
