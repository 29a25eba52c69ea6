// The project's bridges, newest first, committed and staged (pending says which), keyset paged.
// Sought by the (project_id, created_at) index (every node a delta writes has created_at), not a scan of every
// project's bridges nor a seek of every node of the project.
MATCH (b:Bridge:Knowledge)
USING INDEX b:Bridge(project_id, created_at)
WHERE b.project_id = $project_id AND b.created_at IS NOT NULL
  AND ($name IS NULL OR b.name = $name)
  AND ($after_created_at IS NULL OR b.created_at < datetime($after_created_at)
       OR (b.created_at = datetime($after_created_at) AND b.id < $after_id))
RETURN b {.*, pending: b:Pending} AS bridge
ORDER BY b.created_at DESC, b.id DESC
LIMIT toInteger($limit)
