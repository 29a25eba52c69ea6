// A new API key for an organization (project_id null) or one of its projects. Only a hash of the secret is kept.
MATCH (o:TenantOrg {id: $organization_id})
OPTIONAL MATCH (p:TenantProject {id: $project_id})-[:BELONGS_TO]->(o)
WITH o, p
WHERE $project_id IS NULL OR p IS NOT NULL
CREATE (k:ApiKey {
  id: $id, lookup: $lookup, secret_hash: $secret_hash, name: $name, scopes: $scopes,
  organization_id: o.id, project_id: $project_id, writes: $writes, created_at: datetime()
})
CREATE (k)-[:ISSUED_FOR]->(o)
FOREACH (_ IN CASE WHEN p IS NULL THEN [] ELSE [1] END | CREATE (k)-[:SCOPED_TO]->(p))
RETURN k.id AS id, k.scopes AS scopes, k.organization_id AS organization_id, k.project_id AS project_id, k.writes AS writes
