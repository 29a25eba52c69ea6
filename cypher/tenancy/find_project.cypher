MATCH (p:TenantProject {id: $id})
RETURN p.id AS id, p.name AS name, p.organization_id AS organization_id
