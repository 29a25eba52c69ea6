// For each deterministic record id: whether a node exists, is pending, and the content hash of the
// committed node (unchanged records stage nothing); changed_in_delta: this sync's delta already
// holds an update of it (found from the node, not by scanning the delta's changes).
UNWIND $ids AS id
OPTIONAL MATCH (n:Knowledge {id: id})
         USING INDEX n:Knowledge(id)
RETURN id, n IS NOT NULL AS exists, n:Pending AS pending, n.delta_id AS delta_id, n.project_id AS project_id,
       n.content_hash AS content_hash,
       COLLECT { MATCH (n)-[:HAS_CHUNK]->(k:Chunk) WHERE NOT k:Pending RETURN k.id } AS chunk_ids,
       EXISTS { MATCH (n)<-[:TARGET]-(c:Change) WHERE c.delta_id = $delta_id } AS changed_in_delta
