// Deltas of a project, newest first, with optional status and origin filters and a keyset cursor.
MATCH (d:Delta)
USING INDEX d:Delta(project_id, created_at)
WHERE d.project_id = $project_id AND d.created_at IS NOT NULL
  AND ($status IS NULL OR d.status = $status)
  AND ($origin IS NULL OR d.origin = $origin)
  AND ($after_created_at IS NULL
       OR d.created_at < datetime($after_created_at)
       OR (d.created_at = datetime($after_created_at) AND d.id < $after_id))
RETURN properties(d) AS delta
ORDER BY d.created_at DESC, d.id DESC
LIMIT toInteger($limit)
