// The shape named by the document's last extract handoff (POST /v1/documents/{id}/extract).
MATCH (d:Document:Knowledge {id: $id})
USING INDEX d:Knowledge(id)
WHERE d.project_id = $project_id AND NOT d:Pending
RETURN d.requested_shape_id AS shape_id
