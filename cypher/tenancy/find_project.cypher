MATCH (p:Project {id: $id})
RETURN p.id AS id, p.name AS name, p.organization_id AS organization_id
