// A new project, with no webhook endpoint yet: webhook_endpoints counts them (webhooks/count_endpoints keeps it),
// and a governed write sends the outbox statement only while it is not 0 (a project from before the count is
// counted at start: cypher/schema/210_webhook_endpoint_count.cypher).
MATCH (o:TenantOrg {id: $organization_id})
CREATE (p:TenantProject {id: $id, name: $name, organization_id: o.id, created_at: datetime(),
                          webhook_endpoints: 0})-[:BELONGS_TO]->(o)
RETURN p.id AS id, p.name AS name, p.organization_id AS organization_id, p.created_at AS created_at
