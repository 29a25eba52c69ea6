// The project's committed saved context packs, newest first, with a keyset cursor (created_at, id).
// The SELECTED links are not listed here (GET /v1/context/packs/{id} has them).
// Sought by the (project_id, created_at) index (every node a delta writes has created_at), not a scan of every
// project's packs nor a seek of every node of the project.
// Read newest first in the order of the (project_id, created_at) index, sought: ORDER BY names both its
// properties and the cursor bounds the seek, so a page reads its own records, not every one sorted.
MATCH (p:ContextPack:Knowledge)
USING INDEX SEEK p:ContextPack(project_id, created_at)
WHERE p.project_id = $project_id AND p.created_at IS NOT NULL AND NOT p:Pending
  AND p.created_at <= datetime(coalesce($after_created, '9999-12-31T23:59:59.999Z'))
  AND CASE WHEN p.created_at = datetime($after_created) THEN p.id < $after_id ELSE true END
WITH p
ORDER BY p.project_id DESC, p.created_at DESC, p.id DESC
LIMIT toInteger($limit)
RETURN properties(p) AS pack, null AS selected
ORDER BY p.created_at DESC, p.id DESC
