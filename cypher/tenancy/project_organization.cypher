MATCH (p:Project {id: $project_id})-[:BELONGS_TO]->(o:Organization)
RETURN o.id AS organization_id
