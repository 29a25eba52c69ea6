// Operational metadata, set directly (not a delta): an extraction failed. Counts and the hash of
// the last successful extraction are kept.
MATCH (d:Document:Knowledge {id: $document_id})
USING INDEX d:Knowledge(id)
WHERE d.project_id = $project_id AND NOT d:Pending
SET d.stage = 'failed', d.extraction_error = $error, d.updated_at = datetime($now)
RETURN d.id AS id
