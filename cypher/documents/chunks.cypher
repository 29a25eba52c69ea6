// The committed chunks of a document in reading order (what an extraction reads).
MATCH (d:Document:Knowledge {id: $document_id})-[r:HAS_CHUNK]->(c:Chunk)
USING INDEX d:Knowledge(id)
WHERE d.project_id = $project_id AND NOT d:Pending AND r.pending IS NULL AND NOT c:Pending
RETURN c.id AS id, c.index AS index, c.text AS text
ORDER BY c.index
