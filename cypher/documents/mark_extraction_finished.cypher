// Operational metadata, set directly (not a delta): an extraction succeeded. The text it read is
// remembered by hash, so a later change of the text shows the document as outdated.
MATCH (d:Document:Knowledge {id: $document_id})
USING INDEX d:Knowledge(id)
WHERE d.project_id = $project_id AND NOT d:Pending
SET d.stage = 'extracted',
    d.extraction_count = coalesce(d.extraction_count, 0) + 1,
    d.last_extraction_shape = $shape_name,
    d.extracted_token_count = toInteger($token_count),
    d.extracted_char_count = toInteger($char_count),
    d.last_extraction_hash = d.content_hash,
    d.last_extracted_at = datetime($now),
    d.extraction_error = null,
    d.updated_at = datetime($now)
RETURN d.id AS id
