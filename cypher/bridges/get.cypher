// One bridge of the project with the mappings of its version: committed ones, or for a staged
// bridge those its own delta stages. Mappings of earlier versions stay in the graph as history.
MATCH (b:Bridge:Knowledge {id: $id})
USING INDEX b:Knowledge(id)
WHERE b.project_id = $project_id
RETURN b {.*, pending: b:Pending} AS bridge,
       COLLECT {
         MATCH (b)-[:HAS_MAPPING]->(m:BridgeMapping)
         WHERE m.version = b.version AND ((b:Pending AND m.delta_id = b.delta_id) OR (NOT b:Pending AND NOT m:Pending))
         RETURN m {.*} AS m ORDER BY m.position
       } AS mappings
