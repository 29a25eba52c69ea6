// One committed domain entity of the project (never an engine-owned node: only :Entity nodes), with
// its committed relationships to other nodes of the graph (dependants), at most $limit of them.
MATCH (e:Entity:Knowledge {id: $id})
USING INDEX e:Knowledge(id)
WHERE e.project_id = $project_id AND NOT e:Pending
RETURN properties(e) AS entity, [l IN labels(e) WHERE NOT l IN ['Knowledge', 'Entity']] AS labels,
       COUNT { MATCH (e)-[r]-(m:Knowledge) WHERE r.pending IS NULL AND m <> e } AS dependant_count,
       COLLECT { MATCH (e)-[r]-(m:Knowledge) WHERE r.pending IS NULL AND m <> e
                 RETURN DISTINCT m.id AS id ORDER BY id LIMIT toInteger($limit) } AS dependant_ids,
       COLLECT { MATCH (e)-[r]-(m:Knowledge) WHERE r.pending IS NULL AND m <> e
                 RETURN DISTINCT type(r) AS type ORDER BY type } AS dependant_types
