// The committed relationships of committed entities of the project (merge moves them): direction,
// type, the other end and the properties, sorted so a merge stages the same changes every time.
UNWIND $ids AS id
MATCH (e:Entity:Knowledge {id: id})
USING INDEX e:Knowledge(id)
WHERE e.project_id = $project_id AND NOT e:Pending
MATCH (e)-[r]-(m:Knowledge)
WHERE r.pending IS NULL
RETURN e.id AS entity_id, r.id AS relationship_id, type(r) AS type, startNode(r) = e AS outgoing,
       m.id AS other_id, properties(r) AS properties
ORDER BY entity_id, type, other_id, relationship_id
