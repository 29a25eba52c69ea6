// Size of each source of a loop: chunks, characters and tokens (as counted when it was indexed).
UNWIND $source_ids AS source_id
MATCH (s:Document:Knowledge {id: source_id})
USING INDEX s:Knowledge(id)
WHERE s.project_id = $project_id AND NOT s:Pending
OPTIONAL MATCH (s)-[r:HAS_CHUNK]->(c:Chunk)
WHERE r.pending IS NULL
RETURN s.id AS id, s.title AS title, count(c) AS chunks, coalesce(s.char_count, 0) AS characters,
       coalesce(s.token_count, 0) AS tokens
