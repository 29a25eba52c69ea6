MATCH (p:TenantProject {id: $project_id})-[:BELONGS_TO]->(o:TenantOrg)
RETURN o.id AS organization_id
