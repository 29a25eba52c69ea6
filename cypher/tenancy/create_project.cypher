MATCH (o:TenantOrg {id: $organization_id})
CREATE (p:TenantProject {id: $id, name: $name, organization_id: o.id, created_at: datetime()})-[:BELONGS_TO]->(o)
RETURN p.id AS id, p.name AS name, p.organization_id AS organization_id, p.created_at AS created_at
