MATCH (o:TenantOrg)
OPTIONAL MATCH (p:TenantProject)-[:BELONGS_TO]->(o)
RETURN o.id AS id, o.name AS name, o.created_at AS created_at, collect(p.id) AS project_ids
ORDER BY o.created_at
