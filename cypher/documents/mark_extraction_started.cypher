// Operational metadata, set directly (not a delta): an extraction of the document has begun.
MATCH (d:Document:Knowledge {id: $document_id})
USING INDEX d:Knowledge(id)
WHERE d.project_id = $project_id AND NOT d:Pending
SET d.stage = 'extracting', d.extraction_started_at = datetime($now), d.updated_at = datetime($now)
RETURN d.id AS id
