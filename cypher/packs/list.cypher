// The project's committed saved context packs, newest first, with a keyset cursor (created_at, id).
// The SELECTED links are not listed here (GET /v1/context/packs/{id} has them).
// Sought by the (project_id, created_at) index (every node a delta writes has created_at), not a scan of every
// project's packs nor a seek of every node of the project.
MATCH (p:ContextPack:Knowledge)
USING INDEX p:ContextPack(project_id, created_at)
WHERE p.project_id = $project_id AND p.created_at IS NOT NULL AND NOT p:Pending
  AND ($after_created IS NULL OR p.created_at < datetime($after_created)
       OR (p.created_at = datetime($after_created) AND p.id < $after_id))
WITH p
ORDER BY p.created_at DESC, p.id DESC
LIMIT toInteger($limit)
RETURN properties(p) AS pack, null AS selected
ORDER BY p.created_at DESC, p.id DESC
