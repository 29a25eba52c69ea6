// Deltas of a project, newest first, with optional status and origin filters and a keyset cursor.
// Read newest first in the order of the (project_id, created_at) index, sought: ORDER BY names both its
// properties and the cursor bounds the seek, so a page reads its own records, not every one sorted.
MATCH (d:Delta)
USING INDEX SEEK d:Delta(project_id, created_at)
WHERE d.project_id = $project_id AND d.created_at IS NOT NULL
  AND ($status IS NULL OR d.status = $status)
  AND ($origin IS NULL OR d.origin = $origin)
  AND d.created_at <= datetime(coalesce($after_created_at, '9999-12-31T23:59:59.999Z'))
  AND CASE WHEN d.created_at = datetime($after_created_at) THEN d.id < $after_id ELSE true END
RETURN properties(d) AS delta
ORDER BY d.project_id DESC, d.created_at DESC, d.id DESC
LIMIT toInteger($limit)
