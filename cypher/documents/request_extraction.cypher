// Remembers the shape named by the extract handoff, so the follow-up POST /v1/extractions/shape
// (whose body the spec fixes to project_id and source_file_id) extracts through it.
MATCH (d:Document:Knowledge {id: $id})
USING INDEX d:Knowledge(id)
WHERE d.project_id = $project_id AND NOT d:Pending
SET d.requested_shape_id = $shape_id, d.extraction_requested_at = datetime()
RETURN d.id AS id
