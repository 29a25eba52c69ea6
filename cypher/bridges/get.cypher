// One bridge of the project with its mappings: committed ones, or for a staged bridge those its own
// delta stages. pending says whether the bridge itself waits for review.
MATCH (b:Bridge:Knowledge {id: $id})
WHERE b.project_id = $project_id
RETURN b {.*, pending: b:Pending} AS bridge,
       COLLECT {
         MATCH (b)-[:HAS_MAPPING]->(m:BridgeMapping)
         WHERE (b:Pending AND m.delta_id = b.delta_id) OR (NOT b:Pending AND NOT m:Pending)
         RETURN m {.*} AS m ORDER BY m.position
       } AS mappings
