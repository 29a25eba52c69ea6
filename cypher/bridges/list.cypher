// The project's bridges, newest first, committed and staged (pending says which), keyset paged.
// Sought by the (project_id, created_at) index (every node a delta writes has created_at), not a scan of every
// project's bridges nor a seek of every node of the project.
// Read newest first in the order of the (project_id, created_at) index, sought: ORDER BY names both its
// properties and the cursor bounds the seek, so a page reads its own records, not every one sorted.
MATCH (b:Bridge:Knowledge)
USING INDEX SEEK b:Bridge(project_id, created_at)
WHERE b.project_id = $project_id AND b.created_at IS NOT NULL
  AND ($name IS NULL OR b.name = $name)
  AND b.created_at <= datetime(coalesce($after_created_at, '9999-12-31T23:59:59.999Z'))
  AND CASE WHEN b.created_at = datetime($after_created_at) THEN b.id < $after_id ELSE true END
RETURN b {.*, pending: b:Pending} AS bridge
ORDER BY b.project_id DESC, b.created_at DESC, b.id DESC
LIMIT toInteger($limit)
