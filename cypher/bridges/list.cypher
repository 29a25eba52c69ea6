// The project's bridges, newest first, committed and staged (pending says which), keyset paged.
MATCH (b:Bridge:Knowledge)
WHERE b.project_id = $project_id
  AND ($name IS NULL OR b.name = $name)
  AND ($after_created_at IS NULL OR b.created_at < datetime($after_created_at)
       OR (b.created_at = datetime($after_created_at) AND b.id < $after_id))
RETURN b {.*, pending: b:Pending} AS bridge
ORDER BY b.created_at DESC, b.id DESC
LIMIT toInteger($limit)
