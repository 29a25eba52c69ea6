// A committed document of the project, with the shape named by its last extract handoff
// (POST /v1/documents/{id}/extract); no row when there is no such document.
MATCH (d:Document:Knowledge {id: $id})
USING INDEX d:Knowledge(id)
WHERE d.project_id = $project_id AND NOT d:Pending
RETURN d.title AS title, d.requested_shape_id AS shape_id
