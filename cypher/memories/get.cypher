// One committed memory of the project (staged memories are not visible until their delta is applied).
MATCH (m:Memory:Knowledge {id: $id})
WHERE m.project_id = $project_id AND NOT m:Pending
OPTIONAL MATCH (m)-[r:HAS_SUBJECT|HAS_OBJECT]->(e:Entity)
WHERE r.pending IS NULL AND NOT e:Pending
RETURN properties(m) AS memory, collect({type: type(r), entity_id: e.id, name: e.name}) AS links
