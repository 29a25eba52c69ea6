// The project's committed saved context packs, newest first, with a keyset cursor (created_at, id).
// The SELECTED links are not listed here (GET /v1/context/packs/{id} has them).
MATCH (p:ContextPack:Knowledge)
WHERE p.project_id = $project_id AND NOT p:Pending
  AND ($after_created IS NULL OR p.created_at < datetime($after_created)
       OR (p.created_at = datetime($after_created) AND p.id < $after_id))
WITH p
ORDER BY p.created_at DESC, p.id DESC
LIMIT toInteger($limit)
RETURN properties(p) AS pack, null AS selected
ORDER BY p.created_at DESC, p.id DESC
