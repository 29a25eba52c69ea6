// For each deterministic record id: whether a node exists, is pending in this sync's delta, and the
// content hash of the committed node (unchanged records stage nothing).
UNWIND $ids AS id
OPTIONAL MATCH (n:Knowledge {id: id})
RETURN id, n IS NOT NULL AS exists, n:Pending AS pending, n.delta_id AS delta_id, n.project_id AS project_id,
       n.content_hash AS content_hash,
       COLLECT { MATCH (n)-[:HAS_CHUNK]->(k:Chunk) WHERE NOT k:Pending RETURN k.id } AS chunk_ids,
       EXISTS { MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(:Change)-[:TARGET]->(n) } AS changed_in_delta
