// Loops of a project, newest first, with an optional status filter (as last recorded in the graph) and a keyset cursor.
// Read newest first in the order of the (project_id, created_at) index, sought: ORDER BY names both its
// properties and the cursor bounds the seek, so a page reads its own records, not every one sorted.
MATCH (l:Loop)
USING INDEX SEEK l:Loop(project_id, created_at)
WHERE l.project_id = $project_id AND l.created_at IS NOT NULL
  AND ($status IS NULL OR coalesce(l.status, 'queued') = $status)
  AND l.created_at <= datetime(coalesce($after_created_at, '9999-12-31T23:59:59.999Z'))
  AND CASE WHEN l.created_at = datetime($after_created_at) THEN l.id < $after_id ELSE true END
RETURN properties(l) AS loop
ORDER BY l.project_id DESC, l.created_at DESC, l.id DESC
LIMIT toInteger($limit)
