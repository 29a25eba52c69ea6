// Loops of a project, newest first, with an optional status filter (as last recorded in the graph) and a keyset cursor.
MATCH (l:Loop)
USING INDEX l:Loop(project_id, created_at)
WHERE l.project_id = $project_id AND l.created_at IS NOT NULL
  AND ($status IS NULL OR coalesce(l.status, 'queued') = $status)
  AND ($after_created_at IS NULL
       OR l.created_at < datetime($after_created_at)
       OR (l.created_at = datetime($after_created_at) AND l.id < $after_id))
RETURN properties(l) AS loop
ORDER BY l.created_at DESC, l.id DESC
LIMIT toInteger($limit)
